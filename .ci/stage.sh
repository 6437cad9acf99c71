# What .ci/run's steps are made of, apart so that test/ci/stage.test.ts runs them on a real
# failing vitest run: a stage that keeps its tools' output in a log, and shows what failed when
# one fails.
# Sourced by .ci/run, which has set `set -euo pipefail` and made test-results/ci/.

# stage NAME TITLE COMMAND...: COMMAND's output goes to test-results/ci/NAME.log (a stage's
# own reports go beside it, in test-results/NAME/, which the stage may clear); on a
# failure the log's tail is shown (each line behind "| ", so no line of it reads as a verdict).
stage() {
  local name=$1 title=$2 log=test-results/ci/$1.log from=$SECONDS code=0
  shift 2
  echo "== $title"
  "$@" >"$log" 2>&1 || code=$?
  if [ "$code" -ne 0 ]; then
    # vitest reports failed tests and unhandled errors in sections above its closing lines,
    # which a long run pushes out of the tail: show their start too.
    local first
    first=$(grep -n -m1 -E 'Failed Tests [0-9]|Unhandled (Error|Rejection)' "$log" | cut -d: -f1 || true)
    if [ -n "$first" ]; then
      echo "   stage '$name' stopped with exit code $code after $((SECONDS - from)) s; the failures in $log:"
      sed -n "${first},$((first + 80))p" "$log" | sed 's/^/   | /'
    fi
    echo "   stage '$name' stopped with exit code $code after $((SECONDS - from)) s; the end of $log:"
    tail -n 60 "$log" | sed 's/^/   | /'
    # Last, what failed in a few lines: a reader shown only the end of this output (a summary
    # of the run) still reads the failed tests and the errors' messages.
    local digest
    digest=$(grep -E '^ *(FAIL |× )|^([A-Za-z]*Error|error)(: |\[)|^This error originated|^The latest test' "$log" | head -n 12 | cut -c1-300 || true)
    if [ -n "$digest" ]; then
      echo "   stage '$name': what failed, in short:"
      printf '%s\n' "$digest" | sed 's/^/   | /'
    fi
    exit "$code"
  fi
  echo "   done in $((SECONDS - from)) s (output: $log)"
}

# The counts of a vitest JSON report, in a line of our own.
counts() { node -e 'const r=require(process.argv[1]); console.log(`   tests: passed ${r.numPassedTests}, failed ${r.numFailedTests}, skipped ${r.numPendingTests + r.numTodoTests}`)' "$PWD/$1"; }
