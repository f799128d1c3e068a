#pragma once
// Safe stops on SIGINT and SIGTERM (docs/errors.md).
//
// Every temporary output is registered while it exists (TemporaryFile), so a stop can remove it.
// A run with resumable state opens a StopPoint scope: the first signal then only asks it to stop,
// and the run checks `stop_requested()` where its state is consistent, saves it, and throws
// Interrupted naming the resume command. Without such a scope, or on a second signal, the
// handler removes the temporaries and exits at once with 128 + the signal.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace kmol {

// Installs the handlers; `argv` is kept to print the command that resumes a stopped run.
void install_stop_handlers(int argc, char** argv);

// The command line as the user typed it, quoted for a POSIX shell, the program named `kmol`:
// for the headers of outputs and the commands that resume a stopped run.
std::string command_line();
// The same without the options named in `drop` (and their values), with `append` added: the
// command that continues a stopped run from what it kept.
std::string command_line_with(const std::vector<std::string>& drop,
                              const std::vector<std::string>& append);

// 0, or the signal that asked the run to stop.
int stop_signal() noexcept;
inline bool stop_requested() noexcept { return stop_signal() != 0; }

// While one exists, the first signal asks for a stop instead of exiting.
class StopPoint {
 public:
  StopPoint();
  ~StopPoint();
  StopPoint(const StopPoint&) = delete;
  StopPoint& operator=(const StopPoint&) = delete;
  // Throws Interrupted (`what` says what was kept and how to resume) if a stop was asked.
  void check(const std::string& what) const;
};

// An output written under a temporary name and renamed into place by commit(); removed by the
// destructor if not committed, and by a stop. The temporary name carries the process id, so two
// runs writing the same output do not share it.
class TemporaryFile {
 public:
  // option: the command-line option that named `path`, for error messages; suffix ends the
  // temporary name, for tools that choose the format by extension (".png").
  explicit TemporaryFile(std::string path, std::string option = "", const std::string& suffix = "");
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  const std::string& path() const { return path_; }
  const std::string& temporary() const { return temporary_; }
  // Renames the temporary into place; throws InputError naming the path if that fails.
  void commit();

  // The temporary opened for stdio with fopen's `mode`; InputError naming the path if it cannot be.
  using Stream = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;
  Stream open(const char* mode) const;
  // Closes a stream of open(), then commit(); InputError "writing the <what> failed" when any
  // write or the close failed.
  void commit(Stream stream, const std::string& what);
  // Removes the temporary now.
  void discard() noexcept;

 private:
  std::string path_, temporary_, option_;
  int slot_ = -1;
  bool done_ = false;
};

}  // namespace kmol
