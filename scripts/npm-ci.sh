#!/usr/bin/env bash
# `npm ci`, tolerating exactly one known mismatch (used by .ci/run and deploy/Dockerfile):
# the registry these machines reach is a mirror without some other platforms' optional native packages
# (e.g. @swc/core-darwin-arm64 at our version), so npm records no lock entry for them and `npm ci`
# rejects the lock with "Missing: <name>@ from lock file" (no version: nothing resolvable), although
# nothing is missing for this machine. Only in exactly that case install from the same lock with
# `npm install --no-save` (it keeps every locked version and writes neither package.json nor the lock).
# Any other mismatch ("Missing: name@1.2.3 from lock file" for a dependency added without updating the
# lock, "Invalid: ...") still fails.
set -euo pipefail
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if npm ci --no-audit --no-fund "$@" 2>&1 | tee "$log"; then
  exit 0
fi
if grep -q 'EUSAGE' "$log" && grep -q 'Missing: .*@ from lock file' "$log" \
  && ! grep -qE 'Missing: \S+@[^@ ]+ from lock file|Invalid:' "$log"; then
  echo "==> npm ci: only unresolvable optional packages of other platforms lack lock entries; npm install --no-save from the lock"
  npm install --no-save --no-audit --no-fund "$@"
else
  echo "npm ci failed" >&2
  exit 1
fi
