#include "kmol/core/preflight.hpp"

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

// Above these shares of what is free a run is warned about; above all of it, refused.
constexpr double warn_share = 0.5;
// Outputs this large are worth a word even on an empty disk.
constexpr double warn_output_bytes = 4e9;

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string join(const std::vector<std::string>& words) {
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i)
    text += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  return text;
}

void check_writable(const PlannedOutput& out) {
  if (!out.extensions.empty()) {
    bool known = false;
    for (const auto& e : out.extensions) known = known || has_extension(out.path, e);
    if (!known)
      throw UsageError({out.path, out.option, -1},
                       "unknown extension: expected " + join(out.extensions));
  }
  const std::string directory = directory_of(out.path);
  struct stat info {};
  if (stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    throw UsageError({out.path, out.option, -1}, "directory '" + directory + "' does not exist");
  if (access(directory.c_str(), W_OK | X_OK) != 0)
    throw UsageError({out.path, out.option, -1}, "directory '" + directory + "' is not writable (" +
                                                     std::strerror(errno) + ")");
  if (stat(out.path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    throw UsageError({out.path, out.option, -1}, "is a directory; give a file name");
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

// GROMACS' scheme: the existing file becomes #name.1#, #name.2#, ... beside it. Only regular
// files: a device or pipe (/dev/null, a FIFO) is written through, not replaced.
void back_up(const PlannedOutput& out) {
  struct stat info {};
  if (stat(out.path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return;
  const std::string directory = directory_of(out.path);
  const std::string name = out.path.substr(out.path.find_last_of('/') + 1);
  const std::string prefix = out.path.find('/') == std::string::npos ? "" : directory + "/";
  for (int k = 1; k < 100; ++k) {
    const std::string backup = prefix + "#" + name + "." + std::to_string(k) + "#";
    if (access(backup.c_str(), F_OK) == 0) continue;
    if (std::rename(out.path.c_str(), backup.c_str()) != 0) break;
    std::fprintf(stderr, "kmol: note: %s (%s%s) existed; kept as %s\n", out.path.c_str(),
                 out.defaulted ? "the default " : "", out.option.c_str(), backup.c_str());
    return;
  }
  throw UsageError({out.path, out.option, -1},
                   "exists and could not be backed up (99 backups beside it, or the directory "
                   "refuses the rename); remove old backups or name another file");
}

void warn(const std::string& text) { std::fprintf(stderr, "kmol: warning: %s\n", text.c_str()); }

std::atomic<double> resource_cap{0};

// What is free, or the cap where that is lower (an unknown amount is the cap).
double capped(double free) {
  const double cap = resource_cap.load();
  return cap > 0 && (free < 0 || free > cap) ? cap : free;
}

std::string sized(const RunPlan& plan) {
  return plan.size_cause.empty() ? "" : " for " + plan.size_cause;
}

std::string remedy(const RunPlan& plan) {
  std::string text = plan.size_option.empty() ? "" : "change " + plan.size_option + ", or ";
  return text + "add --force to run anyway";
}

}  // namespace

bool has_extension(const std::string& path, const std::string& ending) {
  if (path.size() < ending.size()) return false;
  for (std::size_t i = 0; i < ending.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(path[path.size() - ending.size() + i])) !=
        std::tolower(static_cast<unsigned char>(ending[i])))
      return false;
  return true;
}

double free_disk_bytes(const std::string& directory) {
  struct statvfs fs {};
  if (statvfs(directory.c_str(), &fs) != 0) return capped(-1);
  return capped(double(fs.f_bavail) * double(fs.f_frsize));
}

double available_memory_bytes() {
  double available = -1;
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);)
    if (line.rfind("MemAvailable:", 0) == 0) {
      std::istringstream fields(line.substr(13));
      double kib = 0;
      if (fields >> kib) available = kib * 1024;
    }
  // A container's limit is lower than the machine's memory.
  std::ifstream limit_file("/sys/fs/cgroup/memory.max"), used_file("/sys/fs/cgroup/memory.current");
  double limit = 0, used = 0;
  if (limit_file >> limit && used_file >> used && limit > used)
    available = available < 0 ? limit - used : std::min(available, limit - used);
  return capped(available);
}

void cap_run_resources(double bytes) { resource_cap.store(bytes > 0 ? bytes : 0); }

std::string lattice_cause(const Grid& lattice, const std::string& atoms_file) {
  return "a lattice of " + std::to_string(lattice.counts[0]) + " x " +
         std::to_string(lattice.counts[1]) + " x " + std::to_string(lattice.counts[2]) + " points" +
         (atoms_file.empty() ? "" : " around the atoms of " + atoms_file);
}

std::string human_bytes(double bytes) {
  const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
  int u = 0;
  while (bytes >= 1000 && u < 5) bytes /= 1000, ++u;
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.3g %s", bytes, units[u]);
  return text;
}

void preflight(const RunPlan& plan) {
  for (const auto& out : plan.outputs) {
    if (out.path.empty()) continue;
    check_writable(out);
    for (const auto& in : plan.inputs)
      if (same_file(in, out.path))
        throw UsageError({out.path, out.option, -1}, "is an input of this run; name another file");
    for (const auto& other : plan.outputs)
      if (&other != &out && other.path == out.path)
        throw UsageError({out.path, out.option, -1}, "also named by " + other.option);
  }
  // Outputs sharing a file system share its free space.
  for (const auto& out : plan.outputs) {
    if (out.path.empty() || out.bytes <= 0) continue;
    const std::string directory = directory_of(out.path);
    double total = 0;
    for (const auto& other : plan.outputs)
      if (!other.path.empty() && same_file(directory_of(other.path), directory))
        total += other.bytes;
    const double free = free_disk_bytes(directory);
    const std::string estimate = out.option + " " + out.path + " would take about " +
                                 human_bytes(out.bytes) + sized(plan) +
                                 (free >= 0 ? " (" + human_bytes(free) + " free there)" : "");
    if (free >= 0 && total > free && !plan.force)
      throw ResourceError({out.path, out.option, -1},
                          "not enough disk space: " + estimate + "; " + remedy(plan));
    if ((free >= 0 && total > warn_share * free) || out.bytes > warn_output_bytes) warn(estimate);
  }
  const double memory = available_memory_bytes();
  if (plan.memory_bytes > 0 && memory > 0) {
    const std::string estimate = "the run needs about " + human_bytes(plan.memory_bytes) +
                                 " of memory" + sized(plan) + " (" + human_bytes(memory) +
                                 " available)";
    if (plan.memory_bytes > memory && !plan.force)
      throw ResourceError({"", plan.size_option.substr(0, plan.size_option.find(' ')), -1},
                          "not enough memory: " + estimate + "; " + remedy(plan));
    if (plan.memory_bytes > warn_share * memory) warn(estimate);
  }
  for (const auto& out : plan.outputs)
    if (!out.path.empty()) back_up(out);
}

}  // namespace kmol
