#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang with ASan + UBSan) in build-fuzz/
# and runs each for SECONDS (default 60) on a copy of its seed corpus, the
# targets side by side.
#   scripts/fuzz.sh [SECONDS]
# First replays every input in tests/data/regressions/<target>/ (each once,
# with the sanitizers on: some past crashes only show under them), then fuzzes.
# Prints executions and exec/s per target; exits non-zero on any crash, leak,
# out-of-memory or timeout, leaving the input in build-fuzz/artifacts/.
# Add each such input to tests/data/regressions/<target>/ (regression_test.cpp
# then checks it is refused with a vit::Error).
# Environment: VITSCOPE_JOBS (build jobs, default 2), FUZZ_TARGETS (default
# "safetensors config image torch_bin tour settings lesson font"), FUZZ_RSS_MB (default 2048), FUZZ_KEEP_GOING=1
# (triage: fuzz on past crashes in libFuzzer's fork mode, collecting every
# crashing input in build-fuzz/artifacts/; still exits non-zero if any); CI
# (set: any compiler warning fails the build).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
targets=(${FUZZ_TARGETS:-safetensors config image torch_bin tour settings lesson font})
jobs=${VITSCOPE_JOBS:-2}
rss_mb=${FUZZ_RSS_MB:-2048}

# Packages (only the missing ones): clang 14 with its sanitizer and libFuzzer
# runtimes, and what src/vit builds against (python3-torch for the torch_bin seeds).
"$here/scripts/install_packages.sh" clang libclang-rt-14-dev

build="$here/build-fuzz"
start=$(date +%s)
werror=OFF; case "${CI:-}" in ""|0|false) ;; *) werror=ON ;; esac
cmake -S "$here" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DVITSCOPE_FUZZ=ON -DVITSCOPE_GUI=OFF -DVITSCOPE_TESTS=OFF -DVITSCOPE_BENCH=OFF -DVITSCOPE_WERROR=$werror >/dev/null
cmake --build "$build" -j"$jobs" --target fuzzers >"$build/build.log" 2>&1 || { tail -40 "$build/build.log"; exit 1; }
echo "fuzz: built in $(( $(date +%s) - start )) s"
# The safetensors seeds (and the config seeds again), and the same synthetic
# models saved by torch.save for torch_bin: weight files are never committed.
seeds="$build/seeds"
rm -rf "$seeds"
"$build/fuzz/fuzz_make_seeds" "$seeds" >/dev/null
if [[ " ${targets[*]} " == *" torch_bin "* ]]; then
  /usr/bin/python3 "$here/fuzz/make_torch_seeds.py" models "$seeds/safetensors" "$seeds/torch_bin"
fi
# The font seeds: small fonts cut from DejaVu Sans (fonts-dejavu-core), not the project's to commit.
if [[ " ${targets[*]} " == *" font "* ]]; then
  /usr/bin/python3 "$here/fuzz/make_font_seeds.py" /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf "$seeds/font"
fi

export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}abort_on_error=0:detect_leaks=1"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-}${UBSAN_OPTIONS:+:}print_stacktrace=1"
export VITSCOPE_THREADS=1  # one input at a time, on one thread: deterministic and lighter
artifacts="$build/artifacts"
mkdir -p "$artifacts"

# What went wrong, from a log: the sanitizer's or the C++ runtime's first
# line, else libFuzzer's verdict, else the exit code.
why() {
  grep -m1 -E "runtime error|terminate called|ERROR: (AddressSanitizer|LeakSanitizer)" "$1" ||
    grep -m1 -E "ERROR: libFuzzer|out-of-memory|timeout" "$1" || echo "exit code $2"
}

# One target: replays its regression inputs, then fuzzes. Prints its
# findings; its summary line goes to $build/summary_<target>; exit 1 on any.
fuzz_one() {
  local t=$1 failed=0
  bin="$build/fuzz/fuzz_$t"
  log="$build/fuzz_$t.log"
  regressions="$here/tests/data/regressions/$t"
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    n=0; bad=0
    for input in "$regressions"/*; do
      n=$((n + 1))
      replay="$build/replay_${t}_$(basename "$input").log"
      set +e
      "$bin" -rss_limit_mb="$rss_mb" -timeout=60 "$input" >"$replay" 2>&1
      rc=$?
      set -e
      if [ $rc -ne 0 ]; then
        bad=$((bad + 1))
        echo "fuzz: $t: regression input $(basename "$input") fails again: $(why "$replay" $rc)"
      fi
    done
    echo "fuzz: $t: $n regression input(s) replayed, $bad failing"
    [ $bad -eq 0 ] || { failed=1; echo "$t: $bad of $n regression inputs fail again" >>"$build/summary_$t"; }
  fi

  # A fresh copy of the seeds each run: the committed corpus stays small.
  corpus="$build/corpus/$t"
  rm -rf "$corpus"
  mkdir -p "$corpus"
  for dir in "$here/fuzz/corpus/$t" "$seeds/$t"; do
    [ -d "$dir" ] && cp "$dir"/* "$corpus/"
  done
  [ -n "$(ls -A "$corpus")" ] || { echo "fuzz: $t: no seed inputs"; exit 1; }
  local keep_going=() crashes=""
  [ "${FUZZ_KEEP_GOING:-0}" = 1 ] && keep_going=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
  t0=$(date +%s)
  set +e
  "$bin" "$corpus" "${keep_going[@]}" -max_total_time="$seconds" -dict="$here/fuzz/$t.dict" -rss_limit_mb="$rss_mb" \
    -timeout=30 -artifact_prefix="$artifacts/$t-" -print_final_stats=1 >"$log" 2>&1
  rc=$?
  set -e
  took=$(( $(date +%s) - t0 ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ -z "$execs" ]; then  # fork mode: its last status line "#N: cov: C ... exec/s R ..."
    execs=$(grep -oE "^#[0-9]+:" "$log" | tail -1 | tr -d '#:')
    [ -n "$execs" ] && rate=$(( execs / (took > 0 ? took : 1) ))
    crashes=$(grep -oE "oom/timeout/crash: [0-9]+/[0-9]+/[0-9]+" "$log" | tail -1 | cut -d' ' -f2)
    [ -n "$crashes" ] && [ "$crashes" != "0/0/0" ] && rc=1
  fi
  cov=$(grep -oE "cov: [0-9]+" "$log" | tail -1 | cut -d' ' -f2)
  line="$t: ${execs:-?} executions in ${took} s, ${rate:-?} exec/s, coverage ${cov:-?} edges"
  [ -n "${crashes:-}" ] && line="$line, oom/timeout/crash ${crashes}"
  if [ $rc -ne 0 ]; then
    failed=1
    unit=$(sed -n "s/.*Test unit written to //p" "$log" | tail -1)
    line="$line -- FAILED: $(why "$log" $rc)${unit:+ (input: $unit)}"
  fi
  echo "fuzz: $line"
  if [ -n "$crashes" ] && [ "$crashes" != "0/0/0" ]; then  # fork mode: each kind of finding once
    grep -hE "runtime error|terminate called|ERROR: (AddressSanitizer|LeakSanitizer)|out-of-memory \(" "$log" \
      | sed -E 's/0x[0-9a-f]+//g; s/==[0-9]+==//' | sort | uniq -c | sort -rn | head -10 | sed 's/^/fuzz:   /'
  fi
  echo "$line" >>"$build/summary_$t"
  return $failed
}

# The targets run side by side, one per core (each is single-threaded).
rm -f "$build"/summary_*
pids=()
for t in "${targets[@]}"; do
  fuzz_one "$t" &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done

echo "fuzz summary:"
for t in "${targets[@]}"; do
  sed 's/^/  /' "$build/summary_$t" 2>/dev/null || echo "  $t: stopped early (see $build/fuzz_$t.log)"
done
if [ $failed -ne 0 ]; then
  echo "fuzz: FAILED (logs in $build/fuzz_*.log; add each input to tests/data/regressions/<target>/)"
  exit 1
fi
echo "fuzz: no crash in ${#targets[@]} target(s)"
