#!/bin/sh
# Regenerates e2e/fixtures/vite-builds/: what `npm create vite` + `npm run build` give, untouched
# (base '/', so the HTML and scripts reference /assets/…, /favicon.svg, /icons.svg), for the
# vanilla and react-ts templates, and a React Router 7 app (react-ts with src/main.tsx from
# e2e/fixtures/react-router-app/). The builds are committed rather than made in the tests'
# setup: installing three projects takes minutes on a loaded machine and needs the registry,
# and the bytes a user uploads are the point, not the toolchain. Run it after a template or
# Vite release that changes what a build looks like; it needs the npm registry only (the
# templates ship inside the create-vite package).
set -eu
CREATE_VITE=9.3.0
REACT_ROUTER=7.18.6
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/e2e/fixtures/vite-builds"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

build() { # <dir>: install and build, then copy dist/ to the fixtures
  (cd "$1" && npm install --no-audit --no-fund --loglevel=error && npm run build)
  rm -rf "${out:?}/$1"
  mkdir -p "$out"
  cp -R "$1/dist" "$out/$1"
}

for template in vanilla react-ts; do
  npm create -y "vite@$CREATE_VITE" "$template" -- --template "$template" --no-interactive </dev/null
  build "$template"
done

npm create -y "vite@$CREATE_VITE" react-router -- --template react-ts --no-interactive </dev/null
cp "$root/e2e/fixtures/react-router-app/main.tsx" react-router/src/main.tsx
(cd react-router && npm install --no-audit --no-fund --loglevel=error "react-router@$REACT_ROUTER")
build react-router
echo "built into $out:"
find "$out" -type f | sort
