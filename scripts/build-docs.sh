#!/usr/bin/env bash
# Builds the DocC reference of every library module into a static site, with the toolchain's
# own tools only (no package plugin): the compiler emits symbol graphs, `docc convert` renders
# them. Fails when a public symbol has no doc comment (or one that only repeats its name).
#
#   scripts/build-docs.sh [OUTPUT_DIR]        (default: .build-docs/site)
#
# The articles are docs/*.md, the one source of the prose: the script puts a copy of the
# ones each module's catalog lists (Sources/MODULE/MODULE.docc/articles.txt) into a
# temporary catalog at build time; nothing under docs/ is copied into the repository.
# One site for every module (docc merge; a link to another module's symbol still renders as
# code, below). Serve OUTPUT_DIR with any static web server (DocC pages do not load from file://):
#   python3 -m http.server 8000 --bind 127.0.0.1 --directory .build-docs/site
# and open http://127.0.0.1:8000/documentation/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-$root/.build-docs/site}
scratch=$root/.build-docs
graphs=$scratch/symbol-graphs
work=$scratch/catalogs
start=$(date +%s)

# The library modules: every target of a library product (Package.swift is the one list).
mapfile -t modules < <(swift package dump-package | python3 -c '
import json, sys
package = json.load(sys.stdin)
seen = []
for product in package["products"]:
    if "library" in product["type"]:
        for target in product["targets"]:
            if target not in seen:
                seen.append(target)
print("\n".join(seen))')
echo "modules: ${modules[*]}"

rm -rf "$graphs" "$work"
mkdir -p "$graphs" "$work" "$scratch/archives"
# The modules as the regular debug build makes them, then their public symbol graphs
# extracted from the built modules (with their doc comments and source locations).
for module in "${modules[@]}"; do swift build --target "$module" >/dev/null; done
modules_dir=$(swift build --show-bin-path)/Modules
triple=$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')
mkdir -p "$graphs/all"
for module in "${modules[@]}"; do
    swift-symbolgraph-extract -module-name "$module" -target "$triple" -I "$modules_dir" \
        -minimum-access-level public -output-dir "$graphs/all" >/dev/null
done

python3 "$root/scripts/docs/check-documented.py" "$graphs/all" "${modules[@]}"

rm -rf "$out"
mkdir -p "$out"
archives=()
for module in "${modules[@]}"; do
    mkdir -p "$graphs/$module"
    cp "$graphs/all/$module.symbols.json" "$graphs/$module/"
    cp "$graphs/all/$module@"*.symbols.json "$graphs/$module/" 2>/dev/null || true

    catalog=$work/$module.docc
    source_catalog=$root/Sources/$module/$module.docc
    mkdir -p "$catalog"
    if [ -d "$source_catalog" ]; then
        cp -R "$source_catalog/." "$catalog/"
        rm -f "$catalog/articles.txt"
        if [ -f "$source_catalog/articles.txt" ]; then
            mapfile -t articles < <(grep -v '^#' "$source_catalog/articles.txt" | grep .)
            # All first, so that links between articles resolve whatever their order.
            for article in "${articles[@]}"; do cp "$root/docs/$article" "$catalog/$article"; done
            for article in "${articles[@]}"; do
                python3 "$root/scripts/docs/article.py" "$catalog/$article" "$catalog/$article"
            done
        fi
    fi
    docc convert "$catalog" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.callbackrouter.$module" \
        --output-path "$scratch/archives/$module.doccarchive" \
        --transform-for-static-hosting \
        --diagnostics-file "$scratch/$module.diagnostics.json" >/dev/null
    archives+=("$scratch/archives/$module.doccarchive")
    # Links to another module's symbols (``ReasonCode`` from CallbackRouter) do not resolve
    # in a per-module conversion; they render as code. docc's experimental --dependency
    # (archives built with --enable-experimental-external-link-support) was tried with
    # Swift 6.3's docc: "No external resolver registered" for the dependency's bundle id, so
    # the site is one (merged, below) but its cross-module links are not. Say how many
    # there were, fail on nothing.
    warnings=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1])).get("diagnostics", [])))' \
        "$scratch/$module.diagnostics.json" 2>/dev/null || echo "?")
    echo "  $module ($warnings docc diagnostics)"
done

# One site: the modules' archives merged, with a landing page that lists them.
rm -rf "$scratch/CallbackRouter.doccarchive"
docc merge "${archives[@]}" --synthesized-landing-page-name CallbackRouter \
    --output-path "$scratch/CallbackRouter.doccarchive" >/dev/null
cp -R "$scratch/CallbackRouter.doccarchive/." "$out/"
# The site has each module's page and a page per article (docc names them after the file).
for module in "${modules[@]}"; do
    lower=$(echo "$module" | tr '[:upper:]' '[:lower:]')
    source_catalog=$root/Sources/$module/$module.docc
    pages=("$out/documentation/$lower/index.html")
    if [ -f "$source_catalog/articles.txt" ]; then
        while read -r article; do
            pages+=("$out/documentation/$lower/$(basename "$article" .md | tr '[:upper:]' '[:lower:]')/index.html")
        done < <(grep -v '^#' "$source_catalog/articles.txt" | grep .)
    fi
    for page in "${pages[@]}"; do
        [ -f "$page" ] || { echo "build-docs: $module: docc made no ${page#"$out"/}" >&2; exit 1; }
    done
done
# The root of the site sends the browser to the landing page (docc's own root page is the
# app shell, which shows nothing at /).
echo '<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=documentation/"><title>CallbackRouter documentation</title><a href="documentation/">CallbackRouter documentation</a>' >"$out/index.html"
echo "docs built in $(( $(date +%s) - start )) s: serve $out (python3 -m http.server --directory $out) and open /documentation/"
