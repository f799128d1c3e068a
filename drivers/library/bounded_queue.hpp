#pragma once
// A blocking queue of bounded capacity, closed by the producer side when no more items come.
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>

namespace kmol {

template <class V>
class BoundedQueue {
 public:
  explicit BoundedQueue(std::size_t capacity) : capacity_(capacity) {}

  // Blocks while full; false when the queue was closed (the item is dropped).
  bool push(V value) {
    std::unique_lock<std::mutex> lock(mutex_);
    not_full_.wait(lock, [&] { return closed_ || items_.size() < capacity_; });
    if (closed_) return false;
    items_.push_back(std::move(value));
    not_empty_.notify_one();
    return true;
  }

  // Blocks while empty; nothing once the queue is closed and drained.
  std::optional<V> pop() {
    std::unique_lock<std::mutex> lock(mutex_);
    not_empty_.wait(lock, [&] { return closed_ || !items_.empty(); });
    if (items_.empty()) return std::nullopt;
    V value = std::move(items_.front());
    items_.pop_front();
    not_full_.notify_one();
    return value;
  }

  void close() {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    not_empty_.notify_all();
    not_full_.notify_all();
  }

 private:
  std::size_t capacity_;
  std::deque<V> items_;
  bool closed_ = false;
  std::mutex mutex_;
  std::condition_variable not_empty_, not_full_;
};

}  // namespace kmol
