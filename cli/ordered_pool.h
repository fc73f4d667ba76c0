// Runs N independent tasks on up to `jobs` threads and hands their results
// to one consumer strictly in task order, as soon as each result and all
// before it are ready: what `-j N` needs so that a parallel run prints and
// reports exactly what a serial run would (only timings differ).
//
//   RunOrdered<TraceRun>(files.size(), jobs,
//       [&](size_t i) { return ReplayOne(files[i]); },      // any thread
//       [&](size_t i, TraceRun& r) { Print(r); return true; });  // caller's
//
// The consumer runs on the calling thread; returning false stops the run:
// no task starts after that, tasks in flight finish and are discarded. A
// task starts only after every task before it has started, so when the
// consumer stops at task k, tasks 0..k all ran (a serial run's prefix);
// tasks run at most 2 * jobs ahead of the consumer, so a stop discards
// little. The
// `keep_going` predicate, polled before each task starts, stops the run
// from outside (an interrupt): the consumer then sees the results that are
// ready in order and RunOrdered returns the number it consumed.
#ifndef SCHEDTRACE_CLI_ORDERED_POOL_H_
#define SCHEDTRACE_CLI_ORDERED_POOL_H_

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace schedtrace::cli {

template <typename R>
size_t RunOrdered(
    size_t n, int jobs, const std::function<R(size_t)>& task,
    const std::function<bool(size_t, R&)>& consume,
    const std::function<bool()>& keep_going = [] { return true; }) {
  std::vector<std::optional<R>> slots(n);
  std::mutex mu;
  std::condition_variable ready;  // a result arrived, or the pool stopped
  std::condition_variable room;   // the consumer moved on, or it stopped
  size_t next = 0;                // the next task to start (under mu)
  size_t consuming = 0;           // the next task to consume (under mu)
  bool stopped = false;           // no task starts any more (under mu)
  // Tasks run at most `window` ahead of the consumer: what a stop discards,
  // and the results held, stay bounded.
  const size_t window = 2 * static_cast<size_t>(std::max(jobs, 1));
  auto worker = [&] {
    for (;;) {
      size_t i;
      {
        std::unique_lock<std::mutex> lock(mu);
        room.wait(lock, [&] { return stopped || next < consuming + window; });
        if (stopped || next >= n || !keep_going()) {
          stopped = stopped || next < n;
          ready.notify_all();
          room.notify_all();
          return;
        }
        i = next++;
      }
      R r = task(i);
      std::lock_guard<std::mutex> lock(mu);
      slots[i] = std::move(r);
      ready.notify_all();
    }
  };
  const size_t threads =
      std::min<size_t>(n, static_cast<size_t>(std::max(jobs, 1)));
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
  size_t consumed = 0;
  for (size_t i = 0; i < n; ++i) {
    std::unique_lock<std::mutex> lock(mu);
    // Task i will never run once the pool stopped before starting it.
    ready.wait(lock,
               [&] { return slots[i].has_value() || (i >= next && stopped); });
    if (!slots[i].has_value()) break;
    R r = std::move(*slots[i]);
    slots[i].reset();
    consuming = i + 1;
    room.notify_all();
    lock.unlock();
    ++consumed;
    if (!consume(i, r)) break;
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    stopped = true;
  }
  room.notify_all();
  for (std::thread& t : pool) t.join();
  return consumed;
}

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_ORDERED_POOL_H_
