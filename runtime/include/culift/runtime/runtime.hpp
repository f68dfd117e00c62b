// Everything a host app needs to run lifted kernels: engine, buffers, plans, kernels, pipelines, probe.
#pragma once

#include "culift/runtime/arguments.hpp"
#include "culift/runtime/buffer.hpp"
#include "culift/runtime/cache.hpp"
#include "culift/runtime/compiler.hpp"
#include "culift/runtime/device_group.hpp"
#include "culift/runtime/engine.hpp"
#include "culift/runtime/error.hpp"
#include "culift/runtime/kernel.hpp"
#include "culift/runtime/nvrtc.hpp"
#include "culift/runtime/pipeline.hpp"
#include "culift/runtime/plan.hpp"
#include "culift/runtime/probe.hpp"
#include "culift/runtime/raw_module.hpp"
#include "culift/runtime/registry.hpp"
