#!/usr/bin/env bash
# Builds the helper as it is shipped (the Debian package, Benchmarks/handoff.sh's "static")
# and prints its path: release, warnings are errors, and linked for start-up time, since it
# starts once per redirect:
#   --static-swift-stdlib   the Swift runtime and standard library linked in (no 9 shared
#                           libraries for the dynamic loader to map and bind)
#   libstdc++ and libgcc linked in too (the runtime's C++ support: binding libstdc++'s
#                           symbols was the largest share of what remained in ld.so)
#   --disable-local-rpath   no RUNPATH=$ORIGIN: ld.so stops probing 20 paths beside the binary
# glibc stays a shared library (security updates reach it; Debian policy). Not stripped here:
# scripts/package-deb.sh strips its copy. See docs/performance.md.
#
#   scripts/build-helper.sh          (prints .build/static/release/callback-router)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$PWD/.build/static
# `-lstdc++` (from the toolchain's static-stdlib-args.lnk) finds the archive first: -L
# directories are searched before the system ones, and this one holds only the archive.
libstdcxx=$(g++ -print-file-name=libstdc++.a 2>/dev/null || true)
if [ ! -f "$libstdcxx" ]; then
    libstdcxx=$(ls /usr/lib/gcc/*/*/libstdc++.a 2>/dev/null | sort -V | tail -n 1 || true)
fi
[ -f "$libstdcxx" ] || { echo "build-helper: libstdc++.a not found (apt-get install libstdc++-12-dev)" >&2; exit 1; }
archive_dir=$scratch/static-libstdcxx
mkdir -p "$archive_dir"
ln -sf "$libstdcxx" "$archive_dir/libstdc++.a"
swift build -c release --static-swift-stdlib --disable-local-rpath \
    -Xswiftc -warnings-as-errors -Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
    -Xlinker -L"$archive_dir" \
    --product callback-router --scratch-path "$scratch" >&2
binary=$scratch/release/callback-router
if ldd "$binary" | grep -E 'libstdc\+\+|libgcc_s|libswift'; then
    echo "build-helper: $binary still links the libraries above dynamically" >&2
    exit 1
fi
echo "$binary"
