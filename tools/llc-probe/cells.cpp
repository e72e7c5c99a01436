// The measurement cells of a calibration and a check (see cells.hpp).
#include "cells.hpp"

#include <algorithm>
#include <utility>

namespace llc::probe {

Group& group_of(Group& world, int p) {
    const int P = world.size();
    return p == P ? world : world.subgroup({p, P - p});
}

std::string p2p_name(cost::Path path, cost::Layout layout) {
    return "p2p." + std::string(cost::to_string(path)) + "." + std::string(cost::to_string(layout));
}

Cell collective_cell(CollectiveBench& bench, Group& g, const std::string& op, double h) {
    Cell cell;
    cell.kind = "collective";
    cell.op = op;
    cell.p = g.size();
    cell.bytes = h;
    // The first visit's warm-up picks the batch (llc::tools::warm_up_and_choose_batch), after one untimed call: the
    // first call of a size ≥ own_buffers_from makes and fills its buffers (CollectiveBench::own_buffers), and as the
    // warm-up that call took ≥ 10 µs, so a one-processor no-op got a batch of 1 — a sample of one 64 ns call and two
    // clock reads: bcast at p = 1 probed at 90–110 ns at 1.3–2.4 and 23–73 MiB against 75–80 ns at every other size,
    // and priced 42–65 % high at 2 and 64 MiB in every large run (2026-11-28). What must precede each call
    // (CollectiveBench::prepare: the written shift's message) runs untimed before the sample's canary and barrier; at
    // p ≥ 2 a sample is one call.
    cell.time_once = [&g, body = bench.call(op, h), prepare = bench.prepare(op, h), batch = 0]() mutable {
        if (prepare) {
            prepare();
        }
        if (batch == 0) {
            body();  // makes the call's own buffers, untimed
            if (prepare) {
                prepare();
            }
            batch = tools::warm_up_and_choose_batch(g.native(), body);
            return tools::Sample{};  // a visit's warm-up: not recorded
        }
        return tools::time_sample(g.native(), batch, body);
    };
    return cell;
}

Cell division_split_cell(DivisionBench& bench, int p) {
    Cell cell;
    cell.kind = "division";
    cell.op = "division.split";
    cell.p = p;
    cell.time_once = [&bench] { return bench.time_split(); };
    return cell;
}

Cell division_par_cell(DivisionBench& bench, int p, std::size_t m) {
    Cell cell;
    cell.kind = "division";
    cell.op = "division.par";
    cell.p = p;
    cell.bytes = bench.exchange_bytes(m);
    cell.time_once = [&bench, m] { return bench.time_par(m); };
    return cell;
}

Cell p2p_cell(PointToPointBench& bench, int p, cost::Path path, cost::Layout layout, double n) {
    Cell cell;
    cell.kind = "p2p";
    cell.op = p2p_name(path, layout);
    cell.p = p;
    cell.bytes = n;
    // Sends and receives of small messages take 0.1–0.5 µs, too short to time one by one: they are batched like the
    // collectives on one processor (time at one end per message, as the P-3PC paper averages repetitions). The first
    // call picks the batch.
    cell.time_once = [&bench, path, layout, n, batch = 0]() mutable {
        if (batch == 0) {
            batch = tools::choose_batch_by_doubling([&](int b) { return bench.time_path(path, layout, n, b); });
            return tools::Sample{};  // a visit's warm-up: not recorded
        }
        return bench.time_path(path, layout, n, batch);
    };
    return cell;
}

Cell model_cell(std::string op, int p, double n, std::function<tools::Sample()> body) {
    Cell cell;
    cell.kind = "model";
    cell.op = std::move(op);
    cell.p = p;
    cell.bytes = n;
    cell.time_once = std::move(body);
    return cell;
}

void note_machine_state(tools::Canary& state, const tools::Canary& fastest, int p) {
    state.cpu = state.cpu > 0.0 ? std::min(state.cpu, fastest.cpu) : fastest.cpu;
    if (fastest.throughput > 0.0 && fastest.throughput < 1e300) {
        state.throughput = state.throughput > 0.0 ? std::min(state.throughput, fastest.throughput) : fastest.throughput;
    }
    if (p == 2) {
        state.link = fastest.link;
    }
}

}  // namespace llc::probe
