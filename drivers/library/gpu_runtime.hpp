#pragma once
// The few CUDA runtime calls the worker pool makes (device count, binding a thread to a device,
// its stream), so that no other driver file needs CUDA headers. Without CUDA: no devices.
#include <vector>

namespace kmol {

// CUDA devices this process can use (0 in builds without CUDA or without a driver).
int cuda_device_count();

// Devices 0..count-1 for --gpus COUNT (0: all of them); refuses more than there are.
std::vector<int> cuda_devices(int count);

// Binds the calling thread to `device` and creates a stream there; throws std::runtime_error.
void* open_device_stream(int device);
void close_device_stream(void* stream);

}  // namespace kmol
