#include "kmol/core/stop.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "kmol/core/cancel.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

// The handler may only use async-signal-safe calls, so the temporaries live in fixed slots it
// can walk without locks: a slot is claimed (1), filled, then published (2).
constexpr int slot_count = 256;
constexpr std::size_t path_capacity = 4096;
std::array<std::atomic<int>, slot_count> slot_state{};
char slot_path[slot_count][path_capacity];

std::atomic<int> requested_signal{0};
std::atomic<int> cancelling_signal{0};
std::atomic<volatile int*> cancel_mirror{nullptr};  // mirror_cancel_into's word
static_assert(std::atomic<int>::is_always_lock_free, "set from a signal handler");
std::atomic<int> open_stop_points{0};
std::vector<std::string> typed_words;

void say(const char* text) noexcept {
  const ssize_t ignored = write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

void remove_temporaries() noexcept {
  for (int s = 0; s < slot_count; ++s)
    if (slot_state[s].load() == 2) unlink(slot_path[s]);
}

const char* signal_name(int signal) noexcept { return signal == SIGINT ? "SIGINT" : "SIGTERM"; }

void on_signal(int signal) {
  if (requested_signal.load() != 0 || open_stop_points.load() == 0) {
    remove_temporaries();
    say("\nkmol: stopped by ");
    say(signal_name(signal));
    say("; temporary files removed\n");
    _exit(128 + signal);
  }
  requested_signal.store(signal);
  say("\nkmol: stopping at the next safe point (send the signal again to stop at once)\n");
}

std::string shell_quoted(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789-_=+./:,@%") == std::string::npos)
    return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// An option word: "--steps" or "--steps=10", not a negative number.
bool is_option(const std::string& word) {
  return word.size() > 1 && word[0] == '-' && !std::isdigit(static_cast<unsigned char>(word[1])) &&
         word[1] != '.';
}

}  // namespace

void install_stop_handlers(int argc, char** argv) {
  typed_words.assign(argv, argv + argc);
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // I/O under way at the first signal completes
  for (int signal : {SIGINT, SIGTERM}) sigaction(signal, &action, nullptr);
}

std::string command_line() { return command_line_with({}, {}); }

std::string command_line_with(const std::vector<std::string>& drop,
                              const std::vector<std::string>& append) {
  std::vector<std::string> words{"kmol"};
  for (std::size_t i = 1; i < typed_words.size(); ++i) {
    const std::string& w = typed_words[i];
    const std::string name = w.substr(0, w.find('='));
    if (is_option(w) && std::find(drop.begin(), drop.end(), name) != drop.end()) {
      if (name.size() == w.size())  // "--opt v1 v2": skip the values too
        while (i + 1 < typed_words.size() && !is_option(typed_words[i + 1])) ++i;
      continue;
    }
    words.push_back(w);
  }
  words.insert(words.end(), append.begin(), append.end());
  std::string text;
  for (const auto& w : words) text += (text.empty() ? "" : " ") + shell_quoted(w);
  return text;
}

int stop_signal() noexcept { return requested_signal.load(); }

void request_cancel(int signal) noexcept {
  cancelling_signal.store(signal);
  if (volatile int* word = cancel_mirror.load()) *word = signal;
}
void clear_cancel() noexcept {
  cancelling_signal.store(0);
  if (volatile int* word = cancel_mirror.load()) *word = 0;
}
void mirror_cancel_into(volatile int* word) noexcept {
  *word = cancel_signal();
  cancel_mirror.store(word);
}
int cancel_signal() noexcept { return cancelling_signal.load(std::memory_order_relaxed); }

void throw_if_cancelled(const std::string& what) {
  const int signal = cancel_signal();
  if (signal != 0)
    throw Interrupted(signal,
                      std::string("cancelled by ") + signal_name(signal) + " during " + what);
}

StopPoint::StopPoint() { ++open_stop_points; }
StopPoint::~StopPoint() { --open_stop_points; }

void StopPoint::check(const std::string& what) const {
  const int signal = stop_signal();
  if (signal != 0)
    throw Interrupted(signal, std::string("stopped by ") + signal_name(signal) + "; " + what);
}

TemporaryFile::TemporaryFile(std::string path, std::string option, const std::string& suffix)
    : path_(std::move(path)),
      temporary_(path_ + ".tmp-" + std::to_string(getpid()) + suffix),
      option_(std::move(option)) {
  if (temporary_.size() >= path_capacity) return;  // not removable by a stop, still by us
  for (int s = 0; s < slot_count; ++s) {
    int expected = 0;
    if (slot_state[s].compare_exchange_strong(expected, 1)) {
      std::memcpy(slot_path[s], temporary_.c_str(), temporary_.size() + 1);
      slot_state[s].store(2);
      slot_ = s;
      return;
    }
  }
}

TemporaryFile::~TemporaryFile() {
  if (!done_) discard();
}

void TemporaryFile::discard() noexcept {
  std::remove(temporary_.c_str());
  done_ = true;
  if (slot_ >= 0) slot_state[slot_].store(0);
  slot_ = -1;
}

TemporaryFile::Stream TemporaryFile::open(const char* mode) const {
  Stream stream(std::fopen(temporary_.c_str(), mode), &std::fclose);
  if (!stream) throw InputError({path_, "", -1}, "cannot open the output file for writing");
  return stream;
}

void TemporaryFile::commit(Stream stream, const std::string& what) {
  const bool written = std::ferror(stream.get()) == 0;
  if (std::fclose(stream.release()) != 0 || !written)
    throw InputError({path_, "", -1}, "writing the " + what + " failed (disk full?)");
  commit();
}

void TemporaryFile::commit() {
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    discard();
    throw InputError({path_, option_, -1},
                     "cannot move the finished output into place (" + why + ")");
  }
  done_ = true;
  if (slot_ >= 0) slot_state[slot_].store(0);
  slot_ = -1;
}

}  // namespace kmol
