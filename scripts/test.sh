#!/bin/sh
# npm test: the type check, the linters (npm run lint) and every test file at once, ending with
# the 10 slowest files and the CPU they used. Four files run at a time even on two cores, so
# that one file's waits on sockets, git and child processes are another's CPU
# (TEST_CONCURRENCY overrides). Arguments narrow the files: `npm test -- pipeline` runs the
# unit tests beside the code, `npm test -- test bench` the end-to-end ones.
set -u
roots=${*:-pipeline test bench}
# shellcheck disable=SC2086 # the roots and files are words on purpose
found=$(find $roots -name '*.test.ts' -not -path '*/node_modules/*' | sort)
# The unit tests beside the code (pipeline/, bench/) run together in one process
# (test/units.test.ts); every other file runs in its own.
CRAWLER_INDEX_UNIT_FILES=$(echo "$found" | grep -E '^(pipeline|bench)/' || true)
export CRAWLER_INDEX_UNIT_FILES
files=$(echo "$found" | grep -vE '^(pipeline|bench)/|^test/units\.test\.ts$' || true)
[ -z "$CRAWLER_INDEX_UNIT_FILES" ] || files="test/units.test.ts $files"
npx tsc --noEmit &
typecheck=$!
npm run --silent lint &
lint=$!
# The mini fixture is built once for the whole run (test/support/built-mini.ts); the tests that
# serve it copy this build instead of each making its own.
mini=$(mktemp -d)
node --import tsx test/support/built-mini.ts "$mini" || exit 1
export CRAWLER_INDEX_TEST_MINI="$mini"
# Each test file's process writes its wall time to $times as it exits (test/support/file-clock.mjs).
times=$(mktemp)
# The runner's output is kept too, so that its closing totals can be printed again after the
# slowest files: the totals stay the run's last lines, where CI reads them.
output=$(mktemp)
status=$(mktemp)
# shellcheck disable=SC2086
{
  TEST_FILE_TIMES=$times node --import tsx --import ./test/support/file-clock.mjs --test \
    --test-concurrency="${TEST_CONCURRENCY:-4}" --test-reporter=spec $files
  echo $? >"$status"
} | tee "$output"
tests=$(cat "$status")
wait "$typecheck"
types=$?
wait "$lint"
linted=$?
if [ -s "$times" ]; then
  echo
  echo "the 10 slowest test files (each in its own process; CPU counts its threads and the processes it started):"
  echo "   wall      CPU  file"
  sort -t "$(printf '\t')" -k1,1 -rn "$times" | head -n 10 | awk -F '\t' '{ printf "%7.1f s %6.1f s  %s\n", $1, $2, $3 }'
  awk -F '\t' '{ cpu += $2 } END { printf "CPU of all test files: %.0f s\n", cpu }' "$times"
fi
[ "$types" -eq 0 ] || echo "npm test: the type check failed (exit $types)" >&2
[ "$linted" -eq 0 ] || echo "npm test: npm run lint failed (exit $linted)" >&2
echo
grep -E '^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ' "$output" | tail -n 8
rm -f "$times" "$output" "$status"
rm -rf "$mini"
[ "$types" -eq 0 ] && [ "$linted" -eq 0 ] && [ "$tests" -eq 0 ]
