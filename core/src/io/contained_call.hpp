#pragma once
// Library calls that may crash, hang or end the process on a damaged file run in a child process
// first: the child gets a time and memory limit and sends its result back through a pipe, so a
// crash, a hang or an exit inside the library becomes kmol's refusal of the file.
#include <functional>
#include <string>

namespace kmol::io {

// Runs `work` in a child process and returns the bytes it returned. Throws InputError naming
// `path` when the child dies by a signal, runs past its time or memory, or throws (its message
// follows "what: "); a std::bad_alloc or std::length_error in the child is reported as a size
// field the file gets wrong, not by the exception's name. `what` says what was read ("the run
// input") and `library` what reads it. Inside the child, fail_contained_call(message) ends it
// with that message.
std::string contained_call(const std::string& path, const std::string& what,
                           const std::function<std::string()>& work,
                           const std::string& library = "libgromacs");

// In a child of contained_call: sends `message` as the reason and ends the child. Elsewhere it
// returns false and does nothing.
bool fail_contained_call(const std::string& message);

}  // namespace kmol::io
