#pragma once
// Cancelling the computation under way, for a front end that outlives a stop (the Python module's
// Ctrl-C; docs/python.md). Long loops poll cancel_requested() between pieces of work and skip the
// rest; the call that ran them then throws Interrupted (throw_if_cancelled), its buffers released
// as it unwinds. The command never requests a cancel: its signals exit or stop at a StopPoint
// (stop.hpp).
#include <string>

namespace kmol {

// Async-signal-safe.
void request_cancel(int signal) noexcept;
void clear_cancel() noexcept;
// From now on request_cancel and clear_cancel also store the signal (or 0) into *word, a word that
// code off the host's threads reads (a GPU launch's teams, kernels/cancel_point.hpp); it must
// outlive the process's last signal. One word at a time: a later call replaces it.
void mirror_cancel_into(volatile int* word) noexcept;
// 0, or the signal that asked for the cancel.
int cancel_signal() noexcept;
inline bool cancel_requested() noexcept { return cancel_signal() != 0; }
// Throws Interrupted ("cancelled by SIGINT during <what>") if a cancel was requested.
void throw_if_cancelled(const std::string& what);

}  // namespace kmol
