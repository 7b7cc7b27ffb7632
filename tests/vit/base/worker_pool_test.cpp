// The forward pass's thread pool: every task runs once, and a thread held up
// in one task leaves the rest of the job to the others.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "vit/base/worker_pool.h"

namespace vit {
namespace {

TEST(WorkerPool, EveryTaskRunsExactlyOnce) {
    WorkerPool pool(3);
    for (int count : {1, 2, 3, 7, 64}) {
        std::vector<std::atomic<int>> runs(count);
        for (int job = 0; job < 50; ++job) pool.run(count, [&](int i) { runs[i].fetch_add(1); });
        for (int i = 0; i < count; ++i) EXPECT_EQ(runs[i].load(), 50) << "task " << i << " of " << count;
    }
}

// Task 0 waits for every other task to finish: with a fixed share per
// thread, the waiting thread's other tasks could never run. The timeout only
// keeps a broken pool from hanging the test run.
TEST(WorkerPool, AThreadHeldUpLeavesItsShareToTheOthers) {
    WorkerPool pool(2);
    constexpr int kTasks = 20;
    std::mutex m;
    std::condition_variable others_done;
    int done = 0;
    bool waited_out = false;
    pool.run(kTasks, [&](int i) {
        std::unique_lock lock(m);
        if (i == 0) {
            waited_out = !others_done.wait_for(lock, std::chrono::seconds(20), [&] { return done == kTasks - 1; });
            return;
        }
        if (++done == kTasks - 1) others_done.notify_all();
    });
    EXPECT_FALSE(waited_out) << "the other tasks did not run while task 0 waited";
    EXPECT_EQ(done, kTasks - 1);
}

}  // namespace
}  // namespace vit
