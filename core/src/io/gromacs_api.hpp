#pragma once
// What kmol uses of Debian's libgromacs (2022), and the little glue it needs.
//
// The installed headers (trxio.h, confio.h, tpxio.h) read whole trajectories sequentially. XTC
// random access needs the lower-level XTC functions, which libgromacs exports but whose header
// (fileio/xtcio.h, fileio/gmxfio.h) Debian does not install: they are declared here with the
// exact signatures of GROMACS 2022 (C++ linkage; `real` is float in the single-precision library).
#include <cstdint>
#include <string>

#include "gromacs/fileio/oenv.h"
#include "gromacs/math/vectypes.h"

struct t_fileio;

t_fileio* open_xtc(const char* filename, const char* mode);
void close_xtc(t_fileio* fio);
int read_next_xtc(t_fileio* fio, int natoms, std::int64_t* step, float* time, matrix box, rvec* x,
                  float* precision, bool* ok);
int write_xtc(t_fileio* fio, int natoms, std::int64_t step, float time, const rvec* box,
              const rvec* x, float precision);
int gmx_fio_seek(t_fileio* fio, std::int64_t offset);
// gromacs/utility/fatalerror.h: the function gmx_fatal calls before it ends the process.
void gmx_set_error_handler(void (*handler)(const char* title, const std::string& message,
                                           const char* file, int line));

namespace kmol::io::gromacs {

// An output environment that prints no per-frame progress ("Reading frame ...").
const gmx_output_env_t* quiet_output_environment();

// Makes GROMACS' fatal errors kmol's: no banner, and no exit. In a child of contained_call the
// child ends with the message; elsewhere the message is thrown (std::runtime_error) for the
// caller to report as the file's error.
void install_error_handler();

// Silences stderr while libgromacs prints notes kmol reports its own way (the TPR version line),
// for calls made before any other thread runs.
class QuietStderr {
 public:
  QuietStderr();
  ~QuietStderr();
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  int saved_ = -1;
};

}  // namespace kmol::io::gromacs
