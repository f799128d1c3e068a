#pragma once
// What kmol uses of Debian's libgromacs (2022), and the little glue it needs.
//
// The installed headers (trxio.h, confio.h, tpxio.h) read whole trajectories sequentially. XTC
// random access needs the lower-level XTC functions, which libgromacs exports but whose header
// (fileio/xtcio.h, fileio/gmxfio.h) Debian does not install: they are declared here with the
// exact signatures of GROMACS 2022 (C++ linkage; `real` is float in the single-precision library).
#include <cstdint>

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

namespace kmol::io::gromacs {

// An output environment that prints no per-frame progress ("Reading frame ...").
const gmx_output_env_t* quiet_output_environment();

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
