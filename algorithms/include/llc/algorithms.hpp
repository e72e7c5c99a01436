#pragma once
/// @file
/// Every algorithm of llc (target llc::algorithms): its API, its CCM cost function, and the kernel probes.
#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/contour_ranking.hpp>
#include <llc/algorithms/distance_transform.hpp>
#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/algorithms/fft.hpp>
#include <llc/algorithms/fft_cost.hpp>
#include <llc/algorithms/kernel_probes.hpp>
#include <llc/algorithms/matrix_chain.hpp>
#include <llc/algorithms/path_planning.hpp>
#include <llc/algorithms/row_image.hpp>
#include <llc/algorithms/symv.hpp>
