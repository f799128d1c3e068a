#pragma once
// The errors kmol throws, and the one exit-code policy every front end maps them through
// (docs/errors.md): 2 for what the user can fix in the command or its input, 1 for a run that
// failed, 128 + the signal for a run stopped by SIGINT or SIGTERM. Front ends (the command line,
// the C API, Python) catch `std::exception` and call `exit_code`, so new error types only need
// to derive from the right class here.
#include <stdexcept>
#include <string>

namespace kmol {

// Where bad input came from: any part may be empty.
struct ErrorContext {
  std::string file;
  std::string field;  // dataset, option or column name
  long line = -1;     // line, frame or atom index, whichever the field counts
};

// Input the user can fix: the message names the file, the field and what was expected.
class InputError : public std::runtime_error {
 public:
  InputError(const ErrorContext& where, const std::string& what);
  const ErrorContext& where() const noexcept { return where_; }

 private:
  ErrorContext where_;
};

// Options that do not fit together or do not apply to the chosen mode (field: the option).
class UsageError : public InputError {
 public:
  using InputError::InputError;
};

// A run the preflight refused before any work: its output or memory would not fit. The message
// gives the estimate and the option that changes it; --force proceeds anyway.
class ResourceError : public InputError {
 public:
  using InputError::InputError;
};

// A request that no implementation can satisfy (box too small for the cutoff, say).
class UnsupportedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A run that went wrong while computing (a simulation that blew up, say); what it wrote up to
// the last good point is kept and named in the message.
class RunFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A run stopped by a signal at a safe point, its temporaries removed and its state saved.
class Interrupted : public std::runtime_error {
 public:
  Interrupted(int signal, const std::string& what) : std::runtime_error(what), signal_(signal) {}
  int signal() const noexcept { return signal_; }

 private:
  int signal_;
};

inline constexpr int exit_usage = 2;    // usage and input errors, refused requests
inline constexpr int exit_failure = 1;  // runtime failures

// The exit code of a run that ended with `error`.
int exit_code(const std::exception& error) noexcept;

}  // namespace kmol
