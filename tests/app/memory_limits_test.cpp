// Memory bounds through the real binary: a run whose trace or model would not
// fit the memory budget (VITSCOPE_MEMORY_BUDGET) is refused with a one-line
// message before the memory is taken, instead of vitscope being killed. The
// model is a synthetic one (tests/support) far wider and deeper than the
// default: 256 wide, 12 blocks of 4 heads, 9.5 M parameters (19 MB in F16).
// The child runs with its address space capped (not under AddressSanitizer,
// which reserves terabytes up front), so allocating what was refused would fail
// the test rather than swap the machine.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "support/default_model.h"
#include "support/scratch_dir.h"
#include "support/synthetic_model.h"

#if defined(__SANITIZE_ADDRESS__)
#define VITSCOPE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VITSCOPE_TEST_ASAN 1
#endif
#endif

namespace vit {
namespace {

using testing::ScratchDir;

struct Result {
    int exit_code = -1;  // -1 when a signal ended it
    int signal = 0;
    std::string out, err;
    long max_rss_mb = 0;
};

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// Runs vitscope with `env` added and its address space capped at `as_limit` bytes (0: no cap).
Result run_vitscope(const std::vector<std::string>& args, const std::vector<std::string>& env, size_t as_limit,
                    const ScratchDir& dir) {
    const std::string out = dir.file("stdout"), err = dir.file("stderr");
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (!std::freopen(out.c_str(), "w", stdout) || !std::freopen(err.c_str(), "w", stderr)) ::_exit(120);
        for (const std::string& e : env) ::putenv(const_cast<char*>(e.c_str()));
        if (as_limit) {
            const rlimit cap{as_limit, as_limit};
            ::setrlimit(RLIMIT_AS, &cap);
        }
        std::vector<char*> argv{const_cast<char*>(VITSCOPE_BINARY)};
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(VITSCOPE_BINARY, argv.data());
        ::_exit(121);
    }
    int status = 0;
    rusage usage{};
    ::wait4(pid, &status, 0, &usage);
    Result r;
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    r.out = slurp(out);
    r.err = slurp(err);
    r.max_rss_mb = usage.ru_maxrss / 1024;
    return r;
}

size_t address_space_cap() {
#ifdef VITSCOPE_TEST_ASAN
    return 0;
#else
    return size_t{1536} << 20;
#endif
}

// One line "vitscope: error: ..." mentioning `what`, exit 2, nothing on stdout.
void expect_refusal(const Result& r, const std::string& what) {
    EXPECT_EQ(r.signal, 0) << "killed by signal " << r.signal << "; stderr: " << r.err;
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("vitscope: error: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
}

class MemoryLimits : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = new ScratchDir("vitscope-memory");
        testing::SyntheticSpec spec;
        spec.dim = 256;
        spec.heads = 4;
        spec.depth = 12;
        spec.patch = 16;
        spec.image = 224;
        spec.mlp_dim = 1024;
        spec.classes = 10;
        const Model m = testing::make_synthetic_model(spec);
        testing::write_checkpoint(m, dir_->file("wide"), "timm", DType::F16);
    }
    static void TearDownTestSuite() {
        delete dir_;
        dir_ = nullptr;
    }
    static std::string model() { return dir_->file("wide"); }
    static ScratchDir* dir_;
};
ScratchDir* MemoryLimits::dir_ = nullptr;

// At 1024 px the trace holds 12 layers x 4 heads of 4097 x 4097 weights: 3.2 GB.
TEST_F(MemoryLimits, TraceOverTheBudgetIsRefusedBeforeAllocating) {
    ScratchDir io;
    const Result r = run_vitscope({"attention", testing::asset("dog.jpg"), "--model", model(), "--layer", "0", "--head",
                                   "0", "--query", "cls", "--size", "1024"},
                                  {"VITSCOPE_MEMORY_BUDGET=256M"}, address_space_cap(), io);
    expect_refusal(r, "memory budget");
    std::printf("peak RSS of the refused run: %ld MB\n", r.max_rss_mb);
#ifndef VITSCOPE_TEST_ASAN
    EXPECT_LT(r.max_rss_mb, 256) << "peak RSS of the refused run";
#endif
}

// The default budget (2 GiB) refuses the same run too.
TEST_F(MemoryLimits, TraceOverTheDefaultBudgetIsRefused) {
    ScratchDir io;
    const Result r = run_vitscope({"attention", testing::asset("dog.jpg"), "--model", model(), "--layer", "0", "--head",
                                   "0", "--query", "cls", "--size", "1024"},
                                  {}, address_space_cap(), io);
    expect_refusal(r, "memory budget");
}

// The same model and budget at its own 224 px: the trace (about 60 MB) fits and the run works.
TEST_F(MemoryLimits, TraceWithinTheBudgetRuns) {
    ScratchDir io;
    const Result r = run_vitscope({"attention", testing::asset("dog.jpg"), "--model", model(), "--layer", "11",
                                   "--head", "3", "--query", "cls"},
                                  {"VITSCOPE_MEMORY_BUDGET=256M"}, address_space_cap(), io);
    EXPECT_EQ(r.signal, 0);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1 + 197) << "header + one line per key";
}

// The weights alone (9.5 M parameters, 38 MB once converted to f32) are over a
// 16 MB budget: the model must be refused from the header's shapes, before
// every tensor is converted.
TEST_F(MemoryLimits, ModelOverTheBudgetIsRefusedBeforeConverting) {
    ScratchDir io;
    const Result r =
        run_vitscope({"info", "--model", model()}, {"VITSCOPE_MEMORY_BUDGET=16M"}, address_space_cap(), io);
    expect_refusal(r, "memory budget");
}

}  // namespace
}  // namespace vit
