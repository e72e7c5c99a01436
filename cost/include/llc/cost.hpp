#pragma once
/// @file
/// The CCM cost layer (DESIGN §3): machine profile, piecewise-linear cost functions, cost expressions, the model zoo
/// (CCM, BSP, LogGP, Hockney, P-3PC, C³) and the predicted-against-measured comparison. Target llc::cost.

#include <llc/cost/compare.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/kernel_timing.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/operation_names.hpp>
#include <llc/cost/piecewise.hpp>
#include <llc/cost/profile.hpp>
#include <llc/cost/redistribute.hpp>
