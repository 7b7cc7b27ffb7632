// Every input a fuzzer ever crashed on (tests/data/regressions/<target>/, one
// file each; see scripts/fuzz.sh and TESTING.md) goes through the same path as
// its fuzz target (fuzz/input_paths.h) and must be refused with a vit::Error:
// not accepted, not another exception, not a crash, not a memory blow-up.
// Each input runs in a child process with its address space capped, so a
// regression shows as a failed test instead of taking the test binary (or the
// machine's memory) down with it.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "../fuzz/input_paths.h"
#include "support/scratch_dir.h"
#include "support/synthetic_model.h"
#include "support/torch_zip.h"

namespace {

namespace fs = std::filesystem;

constexpr unsigned long long kMemoryAllowance = 3ULL << 30;  // on top of what the process has mapped
constexpr int kSeconds = 120;

std::vector<uint8_t> read_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

unsigned long long mapped_bytes() {
    std::ifstream statm("/proc/self/statm");
    unsigned long long pages = 0;
    statm >> pages;
    return pages * static_cast<unsigned long long>(::sysconf(_SC_PAGESIZE));
}

// Runs fn in a child process. "" when it threw a vit::Error, else what happened instead.
std::string refused_in_child(const std::function<void()>& fn) {
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0) return "pipe failed";
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) return "fork failed";
    if (pid == 0) {
        ::close(pipe_fds[0]);
        const rlimit cap{mapped_bytes() + kMemoryAllowance, RLIM_INFINITY};
        ::setrlimit(RLIMIT_AS, &cap);
        ::alarm(kSeconds);
        // Codes from 10 up: sanitizers exit with 1 after their report.
        std::string report;
        int code = 0;
        try {
            fn();
            report = "accepted (no vit::Error)";
            code = 11;
        } catch (const vit::Error& e) {
            report = e.what();
            if (std::strchr(e.what(), '\n')) {
                report = "vit::Error message is not one line: " + report;
                code = 14;
            }
        } catch (const std::bad_alloc&) {
            report = "std::bad_alloc (over a " + std::to_string(kMemoryAllowance >> 30) + " GiB allowance)";
            code = 12;
        } catch (const std::exception& e) {
            report = std::string("not a vit::Error: ") + e.what();
            code = 13;
        }
        (void)!::write(pipe_fds[1], report.data(), report.size());
        ::_exit(code);
    }
    ::close(pipe_fds[1]);
    std::string report;
    char buf[512];
    for (ssize_t n; (n = ::read(pipe_fds[0], buf, sizeof buf)) > 0;) report.append(buf, static_cast<size_t>(n));
    ::close(pipe_fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        return sig == SIGALRM ? "did not finish in " + std::to_string(kSeconds) + " s"
                              : std::string("crashed with signal ") + ::strsignal(sig);
    }
    if (!WIFEXITED(status)) return "child ended abnormally";
    if (WEXITSTATUS(status) == 0) return "";
    // A sanitizer reports and exits with its own code, leaving no report of ours.
    return report.empty() ? "exited with code " + std::to_string(WEXITSTATUS(status)) + " (sanitizer report above?)"
                          : report;
}

std::vector<fs::path> inputs(const std::string& target) {
    std::vector<fs::path> files;
    const fs::path dir = fs::path(VITSCOPE_SOURCE_DIR) / "tests" / "data" / "regressions" / target;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

void check_all(const std::string& target, const std::function<void(const std::vector<uint8_t>&)>& feed) {
    const std::vector<fs::path> files = inputs(target);
    // The inputs are committed: none found is a broken checkout, not a reason to skip.
    ASSERT_FALSE(files.empty()) << "no regression inputs for " << target << " in tests/data/regressions";
    for (const fs::path& f : files) {
        const std::vector<uint8_t> bytes = read_bytes(f);
        const std::string problem = refused_in_child([&] { feed(bytes); });
        EXPECT_EQ(problem, "") << target << " regression input " << f.filename().string() << " (" << bytes.size()
                               << " bytes) is not refused with a vit::Error";
    }
}

TEST(FuzzRegressions, ImageInputsAreRefused) {
    check_all("image", [](const std::vector<uint8_t>& b) { vitscope_fuzz::feed_image(b.data(), b.size()); });
}

TEST(FuzzRegressions, ConfigInputsAreRefused) {
    check_all("config", [](const std::vector<uint8_t>& b) { vitscope_fuzz::feed_config(b.data(), b.size()); });
}

TEST(FuzzRegressions, SafetensorsInputsAreRefused) {
    vit::testing::ScratchDir dir("vitscope-regression");
    check_all("safetensors",
              [&](const std::vector<uint8_t>& b) { vitscope_fuzz::feed_safetensors(b.data(), b.size(), dir.str()); });
}

TEST(FuzzRegressions, TorchBinInputsAreRefused) {
    vit::testing::ScratchDir dir("vitscope-regression");
    check_all("torch_bin",
              [&](const std::vector<uint8_t>& b) { vitscope_fuzz::feed_torch_bin(b.data(), b.size(), dir.str()); });
}

// Found when stb_image 2.27 (Debian 12's libstb) decoded JPEG: it wrote past
// its Huffman tables when a DHT segment declared more than 256 codes
// (nothings/stb#1289, #1291), in jpeg_dht_over_256_codes.jpg (whose DHT also
// runs past the file's end) and jpeg_dht_table_past_segment_end.jpg (the last
// table starts 3 bytes before its segment's end). vitscope then checked DHT
// segments itself before stb_image saw them. JPEG now goes to libjpeg-turbo,
// which reads the tables with its own bounds (get_dht: the segment length and
// at most 256 codes), so that check is gone; its inputs are refused with
// libjpeg's reason: the first is cut inside its table (libjpeg waits for the
// rest), the second's table does not fit its segment.
TEST(FuzzRegressions, JpegHuffmanTableInputsAreRefusedByLibjpeg) {
    const fs::path dir = fs::path(VITSCOPE_SOURCE_DIR) / "tests" / "data" / "regressions" / "image";
    const std::pair<const char*, const char*> cases[] = {
        {"jpeg_dht_over_256_codes.jpg",
         "photo.jpg is truncated or damaged (the JPEG ends before its image data begins)"},
        {"jpeg_dht_table_past_segment_end.jpg", "photo.jpg is a damaged JPEG (Bogus marker length)"},
    };
    for (const auto& [name, message] : cases) {
        const auto bytes = read_bytes(dir / name);
        ASSERT_FALSE(bytes.empty()) << name;
        try {
            vit::decode_image(bytes.data(), bytes.size(), "photo.jpg");
            ADD_FAILURE() << name << " accepted";
        } catch (const vit::Error& e) {
            EXPECT_EQ(std::string(e.what()), message) << name;
        }
    }
}

// The harness itself: a valid seed of each target is accepted, so a refusal
// above means the input is refused, not that the path is broken.
TEST(FuzzRegressions, SeedsAreAccepted) {
    const fs::path corpus = fs::path(VITSCOPE_SOURCE_DIR) / "fuzz" / "corpus";
    const auto png = read_bytes(corpus / "image" / "rgb.png");
    EXPECT_NO_THROW(vitscope_fuzz::feed_image(png.data(), png.size()));
    const auto cfg = read_bytes(corpus / "config" / "hf_vit_with_preprocessor.json");
    EXPECT_NO_THROW(vitscope_fuzz::feed_config(cfg.data(), cfg.size()));
    // Safetensors seeds are not committed (*.safetensors is ignored): write one.
    vit::testing::ScratchDir dir("vitscope-regression"), model("vitscope-seed");
    vit::testing::SyntheticSpec spec;  // the sizes input_paths.h's kModelConfig states
    spec.heads = 2;
    spec.patch = 4;
    spec.image = 8;
    vit::testing::write_checkpoint(vit::testing::make_synthetic_model(spec), model.str(), "timm", vit::DType::F16);
    const auto st = read_bytes(fs::path(model.str()) / "model.safetensors");
    ASSERT_FALSE(st.empty());
    EXPECT_NO_THROW(vitscope_fuzz::feed_safetensors(st.data(), st.size(), dir.str()));
    // torch_bin: the same model as pytorch_model.bin, a real torch.save file and a bare data.pkl.
    vit::testing::ScratchDir bin_dir("vitscope-regression");
    const std::string bin = vit::testing::torch_checkpoint_bytes(
        vit::testing::scheme_tensors(vit::testing::make_synthetic_model(spec), "timm", vit::DType::F16));
    EXPECT_NO_THROW(
        vitscope_fuzz::feed_torch_bin(reinterpret_cast<const uint8_t*>(bin.data()), bin.size(), bin_dir.str()));
    for (const char* name : {"bf16_shared_storage.bin", "bf16_shared_storage.pkl"}) {
        const auto seed = read_bytes(corpus / "torch_bin" / name);
        ASSERT_FALSE(seed.empty()) << name;
        vit::testing::ScratchDir seed_dir("vitscope-regression");
        try {
            vitscope_fuzz::feed_torch_bin(seed.data(), seed.size(), seed_dir.str());
        } catch (const vit::Error& e) {
            // Not a ViT: the seed is read, then load_model refuses its names.
            EXPECT_NE(std::string(e.what()).find("unknown naming scheme"), std::string::npos)
                << name << ": " << e.what();
        }
    }
}

}  // namespace
