#!/usr/bin/env bash
# The release artifact, as an operator and a user get it (run by .ci/run after `npm run build`):
# 1. a copy of the built tree with `npm ci --omit=dev` serves (no dev dependency, no build);
# 2. `npm pack` of the CLI package installs into an empty directory and runs with only Node:
#    --help, log in, deploy a site, which the server then serves.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=$(mktemp -d /tmp/htmls-release.XXXXXX)
SERVER_PID=
cleanup() {
  # npm start's whole process group: npm and the server it started. Its exit status (143 when
  # npm dies of the SIGTERM) is not the smoke test's: under `set -e` a failing last command here
  # made the script, and CI with it, exit 143 after "release smoke: ok".
  if [ -n "$SERVER_PID" ]; then
    kill -- -"$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
TOKEN=release-smoke-admin-token-0123

echo "--- a built tree, production dependencies only"
tar -C "$ROOT" --exclude=./node_modules --exclude=./data --exclude=./.tmp --exclude=./test-results --exclude=./.git -cf - . | (mkdir "$WORK/app" && tar -C "$WORK/app" -xf -)
(cd "$WORK/app" && npm ci --omit=dev --no-audit --no-fund --loglevel=error)
for p in esbuild typescript @resvg/resvg-js @napi-rs/keyring @inquirer/password; do
  if [ -e "$WORK/app/node_modules/$p" ]; then echo "$p is installed with --omit=dev" >&2; exit 1; fi
done
(cd "$WORK/app" && PORT=0 HOST=127.0.0.1 DATA_DIR="$WORK/data" ADMIN_TOKEN=$TOKEN exec setsid npm start >"$WORK/server.log" 2>&1) &
SERVER_PID=$!
for _ in $(seq 1 120); do grep -q 'listening on' "$WORK/server.log" 2>/dev/null && break; sleep 0.5; done
cat "$WORK/server.log"
URL=$(grep -o 'listening on http://[^ ]*' "$WORK/server.log" | sed 's/listening on //')
HOSTED=$(grep -o 'hosted sites on http://[^ ]*' "$WORK/server.log" | sed 's/hosted sites on //')
grep -q building "$WORK/server.log" && { echo "npm start built" >&2; exit 1; }
curl -fsS "$URL/api/health"; echo

echo "--- the CLI package, installed from its tarball into an empty directory"
(cd "$ROOT/packages/cli" && npm pack --silent --pack-destination "$WORK" >/dev/null)
mkdir "$WORK/cli" && (cd "$WORK/cli" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error "$WORK"/htmls-cli-*.tgz)
HTMLS="$WORK/cli/node_modules/.bin/htmls"
export HTMLS_CONFIG_DIR="$WORK/cli-config" HTMLS_NO_KEYRING=1
"$HTMLS" --help | head -3
HTMLS_ADMIN_TOKEN=$TOKEN "$HTMLS" login --admin --url "$URL"
mkdir "$WORK/site" && echo '<p>released</p>' >"$WORK/site/index.html"
"$HTMLS" deploy "$WORK/site" --slug release-smoke
curl -fsSL "$HOSTED/p/release-smoke/" >"$WORK/page.html"
grep -q released "$WORK/page.html"
echo "release smoke: ok"
