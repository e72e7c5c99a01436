#pragma once
/// @file
/// The La Laguna C layer: groups, normal and division supersteps, the partner relation, tracing.
#include <llc/agreement.hpp>
#include <llc/broadcast.hpp>
#include <llc/distribution.hpp>
#include <llc/environment.hpp>
#include <llc/error.hpp>
#include <llc/file.hpp>
#include <llc/fingerprint.hpp>
#include <llc/group.hpp>
#include <llc/log2.hpp>
#include <llc/par.hpp>
#include <llc/partners.hpp>
#include <llc/trace.hpp>
