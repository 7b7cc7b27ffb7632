// session::JobThread, both implementations: this file runs in vitscope_tests
// (threads) and in job_thread_turns_tests (job_thread_turns.cpp, the browser's
// one-thread build compiled natively), each checking what its kind promises.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "session/base/job_thread.h"

namespace {

using session::JobThread;

// A worker's queue as ModelWorker keeps one: jobs under a mutex, run_waiting drains them.
struct Queue {
    std::mutex mutex;
    std::vector<int> waiting, done;
    std::thread::id ran_on;

    void push(int job) {
        std::lock_guard lock(mutex);
        waiting.push_back(job);
    }
    void run_waiting() {
        for (;;) {
            int job;
            {
                std::lock_guard lock(mutex);
                if (waiting.empty()) return;
                job = waiting.front();
                waiting.erase(waiting.begin());
                ran_on = std::this_thread::get_id();
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            std::lock_guard lock(mutex);
            done.push_back(job);
        }
    }
};

TEST(JobThread, FinishWaitingReturnsWithEveryJobDoneInOrder) {
    Queue q;
    JobThread jobs([&] { q.run_waiting(); });
    for (int i = 0; i < 20; ++i) {
        q.push(i);
        jobs.wake();
    }
    jobs.finish_waiting();
    std::lock_guard lock(q.mutex);
    ASSERT_EQ(q.done.size(), 20u);
    for (int i = 0; i < 20; ++i) EXPECT_EQ(q.done[i], i);
    EXPECT_TRUE(q.waiting.empty());
}

TEST(JobThread, JobsRunOffThisThreadOrOnlyInTurns) {
    Queue q;
    std::atomic<bool> started_on_job_thread{false};
    std::thread::id start_thread;
    JobThread jobs([&] { q.run_waiting(); },
                   [&] {
                       start_thread = std::this_thread::get_id();
                       started_on_job_thread = true;
                   });
    q.push(1);
    jobs.wake();
    if (JobThread::has_threads()) {
        jobs.finish_waiting();
        EXPECT_NE(q.ran_on, std::this_thread::get_id());
        EXPECT_TRUE(started_on_job_thread);
        EXPECT_EQ(start_thread, q.ran_on);
    } else {
        // Nothing runs behind the page's back: only between frames.
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        EXPECT_TRUE(q.done.empty());
        JobThread::run_turns();
        EXPECT_EQ(q.done, std::vector<int>{1});
        EXPECT_EQ(q.ran_on, std::this_thread::get_id());
        EXPECT_FALSE(started_on_job_thread);  // there is no thread to start
    }
}

TEST(JobThread, RunTurnsRunsEveryWokenWorkerAndOnlyThose) {
    Queue a, b;
    JobThread ja([&] { a.run_waiting(); }), jb([&] { b.run_waiting(); });
    a.push(7);
    ja.wake();
    JobThread::run_turns();
    ja.finish_waiting();
    jb.finish_waiting();
    EXPECT_EQ(a.done, std::vector<int>{7});
    EXPECT_TRUE(b.done.empty());
}

TEST(JobThread, AJobStartedFromAJobRunsToo) {
    Queue q;
    JobThread* self = nullptr;
    int rounds = 0;
    JobThread jobs([&] {
        q.run_waiting();
        if (++rounds == 1) q.push(2), self->wake();  // as a job that starts the next one
    });
    self = &jobs;
    q.push(1);
    jobs.wake();
    jobs.finish_waiting();
    jobs.finish_waiting();
    EXPECT_EQ(q.done, (std::vector<int>{1, 2}));
}

TEST(JobThread, DestructionWaitsForTheRunningJob) {
    std::atomic<bool> started{false}, finished{false};
    {
        JobThread jobs([&] {
            started = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            finished = true;
        });
        jobs.wake();
        if (!JobThread::has_threads()) JobThread::run_turns();
        while (!started) std::this_thread::yield();
    }
    EXPECT_TRUE(finished);
}

}  // namespace
