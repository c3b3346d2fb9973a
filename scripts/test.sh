#!/bin/sh
# npm test: the type check, the linters (npm run lint) and every test file, ending with the 10
# slowest files and the CPU they used. The files run in a few worker processes
# (test/support/test-worker.ts), each taking the next file from one queue, the slowest first, and
# running it inside a suite of its own: a process per file cost 1.5-2 s of CPU each just to start
# node and tsx and load the pipeline. Four workers run even on two cores, so that one file's waits
# on sockets, git and child processes are another's CPU (TEST_CONCURRENCY overrides). Arguments
# narrow the files: `npm test -- pipeline` runs the unit tests beside the code, `npm test -- test
# bench` the end-to-end ones.
set -u
roots=${*:-pipeline test bench}
# shellcheck disable=SC2086 # the roots are words on purpose
files=$(find $roots -name '*.test.ts' -not -path '*/node_modules/*' | sort)
# The tests' throwaway projects, git repositories and servers' files go to memory (/dev/shm)
# where the machine has it and TMPDIR is not set: creating and deleting tens of thousands of
# files on a disk's journal cost a tenth of the run's CPU, measured on 2 cores. The folder stays
# between runs, so the TypeScript loaders' caches in it do too; every test removes its own files.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  TMPDIR=/dev/shm/crawler-index-tests-$(id -u)
  mkdir -p "$TMPDIR" && export TMPDIR || unset TMPDIR
fi
npm run --silent typecheck &
typecheck=$!
npm run --silent lint &
lint=$!
# The mini fixture is built once for the whole run (test/support/built-mini.ts); the tests that
# serve it copy this build instead of each making its own.
mini=$(mktemp -d)
# bin/ts-loader.mjs runs the TypeScript: Node 22.18+ and 24 strip the types themselves (about a
# fifth less CPU than tsx's loader there, and its compiled code is cached between runs); Node 20
# gets tsx's loader through it.
loader="$(pwd)/bin/ts-loader.mjs"
node --import "$loader" test/support/built-mini.ts "$mini" || exit 1
export CRAWLER_INDEX_TEST_MINI="$mini"
# The queue: the files, slowest first by the CPU each used in the last run on this machine, and
# by size where there is none (a file never run, a fresh clone).
queue=$(mktemp -d)
export CRAWLER_INDEX_TEST_QUEUE="$queue"
last=node_modules/.cache/crawler-index/test-times.tsv
for file in $files; do
  cpu=$( [ -f "$last" ] && awk -F '\t' -v f="$file" '$3 == f { print $2 }' "$last")
  echo "${cpu:-0}	$(wc -c <"$file")	$file"
done | sort -t "$(printf '\t')" -k1,1 -k2,2 -rn | cut -f 3 >"$queue/files"
workers=${TEST_CONCURRENCY:-4}
entries=""
for n in $(seq "$workers"); do
  echo "import '$(pwd)/test/support/test-worker.ts';" >"$queue/worker-$n.test.mjs"
  entries="$entries $queue/worker-$n.test.mjs"
done
# The runner's output is kept too, so that its closing totals can be printed again after the
# slowest files: the totals stay the run's last lines, where CI reads them.
output=$(mktemp)
status=$(mktemp)
# shellcheck disable=SC2086
{
  node --import "$loader" --test --test-concurrency="$workers" --test-reporter=spec $entries
  echo $? >"$status"
} | tee "$output"
tests=$(cat "$status")
wait "$typecheck"
types=$?
wait "$lint"
linted=$?
times="$queue/times"
ran=$(grep -cv '	(worker)$' "$times" 2>/dev/null || echo 0)
queued=$(grep -c . "$queue/files")
if [ "$ran" -ne "$queued" ]; then
  echo "npm test: $queued test files were queued but $ran ran to their end" >&2
  tests=1
fi
if [ -s "$times" ]; then
  echo
  echo "the 10 slowest test files (CPU counts each file's threads and the processes it started):"
  echo "   wall      CPU  file"
  grep -v '	(worker)$' "$times" | sort -t "$(printf '\t')" -k1,1 -rn | head -n 10 | awk -F '\t' '{ printf "%7.1f s %6.1f s  %s\n", $1, $2, $3 }'
  awk -F '\t' '$3 == "(worker)" { all += $2; n++ } $3 != "(worker)" { files += $2 } END { printf "CPU of the test files: %.0f s; of the %d worker processes that ran them, starting included: %.0f s\n", files, n, all }' "$times"
  # This run's figures replace the last ones for the files it ran; the others' stay.
  mkdir -p "$(dirname "$last")" && touch "$last" &&
    awk -F '\t' 'FNR == NR { if ($3 != "(worker)") { row[$3] = $0 } next } !($3 in row) { print } END { for (f in row) print row[f] }' "$times" "$last" >"$last.new" &&
    mv "$last.new" "$last"
fi
[ "$types" -eq 0 ] || echo "npm test: the type check failed (exit $types)" >&2
[ "$linted" -eq 0 ] || echo "npm test: npm run lint failed (exit $linted)" >&2
echo
grep -E '^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ' "$output" | tail -n 8
rm -f "$output" "$status"
rm -rf "$mini" "$queue"
[ "$types" -eq 0 ] && [ "$linted" -eq 0 ] && [ "$tests" -eq 0 ]
