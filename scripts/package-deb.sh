#!/usr/bin/env bash
# Builds the Debian package of the helper with the Swift toolchain and dpkg-deb only:
#
#   scripts/package-deb.sh [OUTPUT_DIR]          (default: .build-deb)
#
# prints the path of OUTPUT_DIR/callback-router_VERSION_ARCH.deb. It holds
#   /usr/bin/callback-router              scripts/build-helper.sh's (static Swift stdlib and
#                                         libstdc++, shared glibc), stripped
#   /usr/share/man/man1/callback-router.1.gz and callback-router-COMMAND.1.gz
#                                         rendered from --help by `callback-router manpage`
#   bash, zsh and fish completions        from `callback-router completions SHELL`, in
#                                         /usr/share/bash-completion/completions,
#                                         /usr/share/zsh/vendor-completions,
#                                         /usr/share/fish/vendor_completions.d
#   /usr/share/doc/callback-router/       README, the guides (docs/), copyright, changelog
# Depends is computed by dpkg-shlibdeps. Metadata: packaging/debian/. File dates are the
# last commit's (SOURCE_DATE_EPOCH), owners root, so the same tree gives the same package.
# Needs dpkg-dev (dpkg-shlibdeps) besides the toolchain; lintian is run by scripts/ci-package.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-$root/.build-deb}

for tool in dpkg-deb dpkg-shlibdeps strip gzip; do
    command -v "$tool" >/dev/null || { echo "package-deb: $tool is missing (apt-get install dpkg-dev binutils gzip)" >&2; exit 1; }
done

# Static Swift stdlib, libstdc++ and libgcc; glibc shared (scripts/build-helper.sh says why).
binary=$(bash scripts/build-helper.sh)

version=$("$binary" --version | awk '{ print $2 }')
changelog_version=$(sed -n '1s/^callback-router (\([^)]*\)).*/\1/p' packaging/debian/changelog)
if [ "$version" != "$changelog_version" ]; then
    echo "package-deb: the helper says $version, packaging/debian/changelog's top entry $changelog_version: add an entry" >&2
    exit 1
fi
arch=$(dpkg --print-architecture)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

stage=$(mktemp -d /tmp/callback-router-deb.XXXXXX)
trap 'rm -rf "$stage"' EXIT
pkg=$stage/callback-router_${version}_${arch}
doc=$pkg/usr/share/doc/callback-router
umask 022
install -d "$pkg/DEBIAN" "$pkg/usr/bin" "$pkg/usr/share/man/man1" "$doc/docs"

install -m 0755 "$binary" "$pkg/usr/bin/callback-router"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$pkg/usr/bin/callback-router"
helper=$pkg/usr/bin/callback-router

# Man pages and completions come from the helper that is packaged, so they describe it.
mkdir "$stage/man"
"$helper" manpage --directory "$stage/man" >/dev/null
for page in "$stage"/man/*.1; do
    gzip -9n -c "$page" >"$pkg/usr/share/man/man1/$(basename "$page").gz"
done
for shell in bash zsh fish; do
    case $shell in
        bash) path=usr/share/bash-completion/completions/callback-router ;;
        zsh) path=usr/share/zsh/vendor-completions/_callback-router ;;
        fish) path=usr/share/fish/vendor_completions.d/callback-router.fish ;;
    esac
    install -d "$pkg/$(dirname "$path")"
    "$helper" completions "$shell" >"$pkg/$path"
done

# Debian policy 12.3: documentation over 4 KiB is compressed. Relative links in the README
# (docs/….md) still name the right files once the reader adds .gz.
install -m 0644 packaging/debian/copyright "$doc/copyright"
gzip -9n -c packaging/debian/changelog >"$doc/changelog.gz"
gzip -9n -c README.md >"$doc/README.md.gz"
for page in docs/*.md; do gzip -9n -c "$page" >"$doc/docs/$(basename "$page").gz"; done

# Depends: what the binary links (libc6, …) as dpkg-shlibdeps states it. curl is a
# Recommends (control.in), not a Depends: only the token step (login --issuer /
# --token-endpoint, refresh) runs it, and every other command (open, the per-redirect
# path) works without it; without curl those two refuse with transport_unavailable (69).
mkdir -p "$stage/src/debian"
printf 'Source: callback-router\n\nPackage: callback-router\nArchitecture: any\n' >"$stage/src/debian/control"
depends=$(cd "$stage/src" && dpkg-shlibdeps -O "$helper" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "package-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

find "$pkg" -type d -exec chmod 0755 {} +
find "$pkg/usr" -type f ! -path "$pkg/usr/bin/*" -exec chmod 0644 {} +
(cd "$pkg" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$pkg/DEBIAN/md5sums"
chmod 0644 "$pkg/DEBIAN/md5sums"
size=$(du -k -s --apparent-size "$pkg/usr" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
    packaging/debian/control.in >"$pkg/DEBIAN/control"
chmod 0644 "$pkg/DEBIAN/control"
find "$pkg" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +

mkdir -p "$out"
deb=$out/callback-router_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" >&2
echo "$deb"
