#!/usr/bin/env bash
# Builds everything with AddressSanitizer + UndefinedBehaviorSanitizer (and
# float-cast-overflow, which GCC leaves out of "undefined") in build-asan/ and
# runs the whole ctest suite on it (window tests under their own Xvfb, as in
# scripts/test.sh). Any sanitizer report fails the test that caused it: UBSan
# halts on its first error, LeakSanitizer reports leaks at each process's exit,
# except those tests/support/lsan.supp lists (third-party only). Every test process
# preloads tests/support/lsan_keep_modules.c (dlclose does nothing) so that leaks in
# Mesa's driver, unloaded at exit, keep names a suppression can match.
#   scripts/sanitize.sh [ctest arguments...]
# Environment: VITSCOPE_JOBS (build jobs, default: the number of cores); CI
# (set: any compiler warning fails the build); SANITIZE_GUI=OFF (build without
# the window, ImGui and GL: the model, session and command line and their
# tests; pass -E '^py_|^node_' then, the script tests expect the window);
# SANITIZE_CC / SANITIZE_CXX (default gcc / g++; clang / clang++ build in
# about 60 % of GCC's time); SANITIZE_BUILD (default build-asan/).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

# The same packages as scripts/setup.sh (only the missing ones).
"$here/scripts/install_packages.sh" $([ "${SANITIZE_CC:-gcc}" = clang ] && echo clang libclang-rt-14-dev)

build="${SANITIZE_BUILD:-$here/build-asan}"
start=$(date +%s)
# No -Werror here: GCC's flow analysis under -fsanitize reports warnings the
# plain build does not (GCC bug 105593 as -Wuninitialized); the Release build
# (scripts/test.sh) and the fuzzers are where CI fails on a warning. The count
# is printed so none goes unseen.
# -O1 -g1 (line tables), as the sanitizers' authors suggest: reports keep
# file:line and the build takes about a third less time than at -O2 -g
# (full debug info of the Eigen-heavy files nearly doubled it).
cmake -S "$here" -B "$build" -DCMAKE_C_COMPILER="${SANITIZE_CC:-gcc}" -DCMAKE_CXX_COMPILER="${SANITIZE_CXX:-g++}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DVITSCOPE_SANITIZE=address,undefined,float-cast-overflow \
  -DVITSCOPE_BENCH=OFF -DVITSCOPE_WERROR=OFF -DVITSCOPE_GUI="${SANITIZE_GUI:-ON}" >/dev/null
cmake --build "$build" -j"${VITSCOPE_JOBS:-$(nproc)}" >"$build/build.log" 2>&1 || { tail -40 "$build/build.log"; exit 1; }
echo "sanitize: $(grep -c 'warning:' "$build/build.log" || true) compiler warnings in the sanitizer build ($build/build.log)"
cc -shared -fPIC -O2 -o "$build/liblsan_keep_modules.so" "$here/tests/support/lsan_keep_modules.c"
echo "sanitize: built in $(( $(date +%s) - start )) s"

source "$here/scripts/model_env.sh"
# Every process the tests start (the vitscope binary too) inherits these.
# verify_asan_link_order=0: the preloaded library comes before the ASan runtime.
export ASAN_OPTIONS="detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:verify_asan_link_order=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$here/tests/support/lsan.supp:print_suppressions=0"
export LD_PRELOAD="$build/liblsan_keep_modules.so${LD_PRELOAD:+:$LD_PRELOAD}"
start=$(date +%s)
cd "$build"
set +e
ctest --output-on-failure --timeout 1800 -j"$(nproc)" "$@" 2>&1 | tee "$build/ctest.log"
rc=${PIPESTATUS[0]}
# LeakSanitizer's stop-the-world tracer itself crashes now and then at a
# process's exit (google/sanitizers#1353): not a finding. Failed tests are run
# once more when, and only when, that is in the log.
if [ "$rc" -ne 0 ] && grep -q "Tracer caught signal" "$build/ctest.log"; then
  echo "sanitize: LeakSanitizer's tracer crashed (a known sanitizer flake); running the failed tests again"
  ctest --output-on-failure --timeout 1800 --rerun-failed 2>&1 | tee "$build/ctest-rerun.log"
  rc=${PIPESTATUS[0]}
fi
set -e
echo "sanitize: ctest took $(( $(date +%s) - start )) s (exit $rc)"
exit "$rc"
