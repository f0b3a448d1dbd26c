#!/usr/bin/env bash
# The release artifact, as an operator and a user get it (run by .ci/run after `npm run build`):
# 1. the tarball `npm run build` wrote (dist/htmls-<version>.tgz), unpacked into an empty
#    directory, serves with only Node: no npm install, no build, no dev dependency, nothing of
#    the checkout; `npm start` there serves and a SIGTERM to it stops it;
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

echo "--- the release tarball, unpacked alone, with only Node"
VERSION=$(node -p "require('./package.json').version")
TARBALL="$ROOT/dist/htmls-$VERSION.tgz"
[ -f "$TARBALL" ] || { echo "$TARBALL is missing: npm run build writes it" >&2; exit 1; }
mkdir "$WORK/release" && tar -C "$WORK/release" -xzf "$TARBALL"
APP="$WORK/release/htmls"
echo "tarball $(du -h "$TARBALL" | cut -f1), unpacked $(du -sh "$APP" | cut -f1) (node_modules $(du -sh "$APP/node_modules" | cut -f1))"
# (@resvg/resvg-js is in it: it draws the shares' link-preview cards, checked below.)
for p in esbuild typescript @napi-rs/keyring @inquirer/password @next/swc-linux-x64-gnu @next/swc-linux-x64-musl vitest @playwright/test; do
  if [ -e "$APP/node_modules/$p" ]; then echo "$p is in the release" >&2; exit 1; fi
done
# sharp is: it makes the shares' image thumbnails and poster JPEGs (issue 43), with its libvips.
(cd "$APP" && node -e "import('sharp').then((s) => s.default({ create: { width: 2, height: 2, channels: 3, background: '#123456' } }).jpeg().toBuffer()).then((b) => console.log('sharp in the release makes a JPEG of ' + b.length + ' bytes'))")
# Nothing but the folder and Node: an empty environment, a PATH without the checkout's tools.
(cd "$APP" && exec env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$WORK/home" PORT=0 HOST=127.0.0.1 DATA_DIR="$WORK/data" ADMIN_TOKEN=$TOKEN setsid npm start >"$WORK/server.log" 2>&1) &
SERVER_PID=$!
for _ in $(seq 1 120); do grep -q 'listening on' "$WORK/server.log" 2>/dev/null && break; sleep 0.5; done
cat "$WORK/server.log"
URL=$(grep -o 'listening on http://[^ ]*' "$WORK/server.log" | sed 's/listening on //')
HOSTED=$(grep -o 'hosted sites on http://[^ ]*' "$WORK/server.log" | sed 's/hosted sites on //')
grep -q building "$WORK/server.log" && { echo "npm start built" >&2; exit 1; }
curl -fsS "$URL/api/health"; echo
# The pages, their scripts and styles, and the icons.
for path in / /htmls /files /files/manifest.webmanifest /favicon.ico /icons/icon-192.png /user-guide.html; do
  curl -fsS -o /dev/null "$URL$path" || { echo "GET $path failed" >&2; exit 1; }
done
asset=$(curl -fsS "$URL/files" | grep -o '/_next/static/[^"]*\.js' | head -1)
curl -fsS -o /dev/null "$URL$asset" || { echo "GET $asset failed" >&2; exit 1; }

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

echo "--- a share's link-preview card is drawn, not the blank fallback (its native renderer is in the release)"
printf 'preview\n' >"$WORK/card.txt"
LINK=$("$HTMLS" share "$WORK/card.txt" | head -1)
curl -fsS -o "$WORK/card.png" "$LINK.png"
node -e "const b = require('fs').readFileSync(process.argv[1]);
  if (b.readUInt32BE(16) !== 1200 || b.readUInt32BE(20) !== 630) { console.error('the card is ' + b.readUInt32BE(16) + '×' + b.readUInt32BE(20) + ', not 1200×630'); process.exit(1); }" "$WORK/card.png"

echo "--- SIGTERM to npm start stops the release's server"
PORT_ONLY=${URL##*:}
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" || { echo "npm start exited with $?" >&2; exit 1; }
SERVER_PID=
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT_ONLY") 2>/dev/null; then echo "port $PORT_ONLY still open after SIGTERM" >&2; exit 1; fi

# The S3 store is a chunk of its own, loaded only with STORAGE=s3: its packages must be in the
# release too. On the S3 test server when one runs (CI starts it before this script).
if (exec 3<>/dev/tcp/127.0.0.1/7480) 2>/dev/null; then
  echo "--- the release on S3 (the test server on 127.0.0.1:7480)"
  BUCKET=htmls-release-smoke-$$
  S3="const { S3Client, CreateBucketCommand, ListObjectsV2Command, DeleteObjectsCommand, DeleteBucketCommand } = require('@aws-sdk/client-s3');
    const c = new S3Client({ endpoint: 'http://127.0.0.1:7480', region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'testkey', secretAccessKey: 'testsecret' } });"
  node -e "$S3 c.send(new CreateBucketCommand({ Bucket: '$BUCKET' }))"
  drop_bucket() {
    node -e "$S3 (async () => { const l = await c.send(new ListObjectsV2Command({ Bucket: '$BUCKET' }));
      if (l.Contents?.length) await c.send(new DeleteObjectsCommand({ Bucket: '$BUCKET', Delete: { Objects: l.Contents.map((o) => ({ Key: o.Key })) } }));
      await c.send(new DeleteBucketCommand({ Bucket: '$BUCKET' })); })()" 2>/dev/null || true
  }
  trap 'drop_bucket; cleanup' EXIT
  (cd "$APP" && exec env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$WORK/home" PORT=0 HOST=127.0.0.1 DATA_DIR="$WORK/data-s3" ADMIN_TOKEN=$TOKEN \
    S3_ENDPOINT=http://127.0.0.1:7480 S3_BUCKET="$BUCKET" S3_REGION=us-east-1 S3_ACCESS_KEY_ID=testkey S3_SECRET_ACCESS_KEY=testsecret S3_FORCE_PATH_STYLE=true \
    setsid node scripts/start.mjs >"$WORK/server-s3.log" 2>&1) &
  SERVER_PID=$!
  for _ in $(seq 1 120); do grep -q 'listening on' "$WORK/server-s3.log" 2>/dev/null && break; sleep 0.5; done
  grep '^\[htmls\]' "$WORK/server-s3.log"
  URL=$(grep -o 'listening on http://[^ ]*' "$WORK/server-s3.log" | sed 's/listening on //')
  HOSTED=$(grep -o 'hosted sites on http://[^ ]*' "$WORK/server-s3.log" | sed 's/hosted sites on //')
  grep -q 's3 storage' "$WORK/server-s3.log"
  curl -fsS "$URL/api/health"; echo
  HTMLS_ADMIN_TOKEN=$TOKEN "$HTMLS" login --admin --url "$URL" >/dev/null
  "$HTMLS" deploy "$WORK/site" --slug release-smoke-s3 >/dev/null
  curl -fsSL "$HOSTED/p/release-smoke-s3/" | grep -q released
fi
echo "release smoke: ok"
