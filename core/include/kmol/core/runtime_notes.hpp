#pragma once
// Where kmol::Runtime's notes go (such as fewer host threads than cores because other processes
// keep cores busy): nowhere unless a front end asks, so a program using the library prints
// nothing at start-up; the command prints them.
#include <functional>
#include <string>

namespace kmol {

void set_runtime_notes(std::function<void(const std::string&)> sink);

}  // namespace kmol
