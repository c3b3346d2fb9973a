#!/bin/sh
# npm test: the type check, the linters (npm run lint) and every test file at once. The tests wait on sockets, git and
# child processes more than on the CPU, so four files run at a time even on two cores
# (TEST_CONCURRENCY overrides). Arguments narrow the files: `npm test -- pipeline` runs the
# unit tests beside the code, `npm test -- test bench` the end-to-end ones.
set -u
roots=${*:-pipeline test bench}
# shellcheck disable=SC2086 # the roots and files are words on purpose
files=$(find $roots -name '*.test.ts' -not -path '*/node_modules/*' | sort)
npx tsc --noEmit &
typecheck=$!
npm run --silent lint &
lint=$!
# shellcheck disable=SC2086
node --import tsx --test --test-concurrency="${TEST_CONCURRENCY:-4}" --test-reporter=spec $files
tests=$?
wait "$typecheck"
types=$?
wait "$lint"
linted=$?
[ "$types" -eq 0 ] || echo "npm test: the type check failed (exit $types)" >&2
[ "$linted" -eq 0 ] || echo "npm test: npm run lint failed (exit $linted)" >&2
[ "$types" -eq 0 ] && [ "$linted" -eq 0 ] && [ "$tests" -eq 0 ]
