// polydip's benchmark driver for dipcc (bench/dipcc_bench.py builds and runs it): random
// standard games played through dipcc's Game API in C++, the same random player as
// bench/dipcc_bench.py gives polydip (bench/README.md, "dipcc side by side"):
//   movement and retreat phases: each unit with possible orders gets one of them, uniformly;
//   adjustment phases: a power owed n builds picks n times, uniformly, among all its possible
//   builds and WAIVE; a power owing n removals picks n times among its possible disbands
//   (a repeated pick is void, as in polydip's FastGame).
// Game g lasts until dipcc says it is over or the phase reaches the year --until-year; its
// generator is std::mt19937_64 seeded with seed + g.
//
//   dipcc_random_games --seed S --games N --until-year Y --mode loop|calls|state
//
// mode loop: the CPU time of the whole loop (legal orders, choice, set_orders, process), the
//   Game API as pydipcc exposes it (orders as strings, the game's history kept).
// mode calls: the same loop, also the CPU time of each call, per phase type (the timers cost
//   a little).
// mode state: dipcc's leanest path: the chosen Order objects straight into
//   GameState::process, no strings, no Game, no history (what a C++ search would run).
// Prints one JSON object on stdout.
#include <glog/logging.h>
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "game.h"
#include "loc.h"
#include "order.h"
#include "power.h"

namespace {

double cpu_seconds(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct Sums {
  double legal = 0, choose = 0, set = 0, process = 0;
  long phases = 0;
};

int type_index(char t) { return t == 'M' ? 0 : (t == 'R' ? 1 : 2); }

[[noreturn]] void usage(const char *why) {
  std::fprintf(stderr,
               "error: %s\nusage: dipcc_random_games --seed S --games N "
               "--until-year Y --mode loop|calls|state\n",
               why);
  std::exit(2);
}

long parse_long(const char *s, const char *name) {
  char *end = nullptr;
  long v = std::strtol(s, &end, 10);
  if (end == s || *end != '\0' || v < 0) {
    usage((std::string(name) + " needs a whole number >= 0").c_str());
  }
  return v;
}

// The state-level loop (mode state): the same player, on Order objects.
long state_loop(long seed, long games, long until_year) {
  long phases = 0;
  const dipcc::GameState start = dipcc::Game().get_state();  // the board of 1901
  for (long g = 0; g < games; ++g) {
    std::mt19937_64 rng(static_cast<uint64_t>(seed + g));
    dipcc::GameState state = start;
    while (state.get_phase().phase_type != 'C' &&
           static_cast<long>(state.get_phase().year) < until_year) {
      char type = state.get_phase().phase_type;
      const auto &orderable = state.get_orderable_locations();
      const auto &possible = state.get_all_possible_orders();
      std::unordered_map<dipcc::Loc, dipcc::Power> owner;
      for (const auto &[power, locs] : orderable)
        for (dipcc::Loc loc : locs) owner[loc] = power;
      std::unordered_map<dipcc::Power, std::vector<dipcc::Order>> chosen;
      if (type != 'A') {
        for (const auto &[loc, orders] : possible) {
          auto it = owner.find(dipcc::root_loc(loc));
          if (it == owner.end() || orders.empty()) continue;
          std::uniform_int_distribution<size_t> pick(0, orders.size() - 1);
          chosen[it->second].push_back(*std::next(orders.begin(), pick(rng)));
        }
      } else {
        std::map<dipcc::Power, std::vector<const dipcc::Order *>> options;
        for (const auto &[loc, orders] : possible) {
          auto it = owner.find(dipcc::root_loc(loc));
          if (it == owner.end()) continue;
          for (const auto &o : orders) options[it->second].push_back(&o);
        }
        for (auto &[power, opts] : options) {
          int n = state.get_n_builds(power);
          if (n > 0) opts.push_back(nullptr);  // WAIVE
          std::uniform_int_distribution<size_t> pick(0, opts.size() - 1);
          for (int k = 0; k < (n > 0 ? n : -n); ++k) {
            const dipcc::Order *o = opts[pick(rng)];
            if (o != nullptr) chosen[power].push_back(*o);
          }
        }
      }
      state = state.process(chosen);
      ++phases;
    }
  }
  return phases;
}

}  // namespace

int main(int argc, char **argv) {
  long seed = 1, games = 10, until_year = 1930;
  bool calls = false, state = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (i + 1 >= argc) usage(("missing value after " + a).c_str());
    const char *v = argv[++i];
    if (a == "--seed") seed = parse_long(v, "--seed");
    else if (a == "--games") games = parse_long(v, "--games");
    else if (a == "--until-year") until_year = parse_long(v, "--until-year");
    else if (a == "--mode") {
      if (std::strcmp(v, "loop") == 0) calls = false;
      else if (std::strcmp(v, "calls") == 0) calls = true;
      else if (std::strcmp(v, "state") == 0) state = true;
      else usage("--mode is loop, calls or state");
    } else usage(("unknown option " + a).c_str());
  }
  // dipcc logs a warning for each void build; the driver's picks may repeat (see above)
  FLAGS_minloglevel = 2;
  FLAGS_logtostderr = true;

  if (state) {
    double t0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
    long n = state_loop(seed, games, until_year);
    std::printf("{\"phases\": %ld, \"cpu_s\": %.6f}\n", n,
                cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - t0);
    return 0;
  }
  const clockid_t T = CLOCK_THREAD_CPUTIME_ID;
  Sums sums[3];
  long phases = 0;
  double t_start = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
  for (long g = 0; g < games; ++g) {
    std::mt19937_64 rng(static_cast<uint64_t>(seed + g));
    dipcc::Game game;
    while (!game.is_game_done()) {
      dipcc::Phase phase = game.get_state().get_phase();
      if (static_cast<long>(phase.year) >= until_year) break;
      double t0 = calls ? cpu_seconds(T) : 0;
      auto orderable = game.get_orderable_locations();
      const auto &possible = game.get_all_possible_orders();
      double t1 = calls ? cpu_seconds(T) : 0;

      std::unordered_map<dipcc::Loc, dipcc::Power> owner;
      for (const auto &[power, locs] : orderable)
        for (dipcc::Loc loc : locs) owner[loc] = power;
      std::map<dipcc::Power, std::vector<std::string>> chosen;
      if (phase.phase_type != 'A') {
        for (const auto &[loc, orders] : possible) {
          auto it = owner.find(dipcc::root_loc(loc));
          if (it == owner.end() || orders.empty()) continue;
          std::uniform_int_distribution<size_t> pick(0, orders.size() - 1);
          chosen[it->second].push_back(
              std::next(orders.begin(), pick(rng))->to_string());
        }
      } else {
        std::map<dipcc::Power, std::vector<std::string>> options;
        for (const auto &[loc, orders] : possible) {
          auto it = owner.find(dipcc::root_loc(loc));
          if (it == owner.end()) continue;
          for (const auto &o : orders) options[it->second].push_back(o.to_string());
        }
        for (auto &[power, opts] : options) {
          int n = game.get_state().get_n_builds(power);
          if (n > 0) opts.push_back("WAIVE");
          std::uniform_int_distribution<size_t> pick(0, opts.size() - 1);
          for (int k = 0; k < (n > 0 ? n : -n); ++k)
            chosen[power].push_back(opts[pick(rng)]);
        }
      }
      double t2 = calls ? cpu_seconds(T) : 0;
      for (const auto &[power, strs] : chosen)
        game.set_orders(dipcc::power_str(power), strs);
      double t3 = calls ? cpu_seconds(T) : 0;
      game.process();
      ++phases;
      if (calls) {
        double t4 = cpu_seconds(T);
        Sums &s = sums[type_index(phase.phase_type)];
        s.legal += t1 - t0;
        s.choose += t2 - t1;
        s.set += t3 - t2;
        s.process += t4 - t3;
        s.phases += 1;
      }
    }
  }
  double cpu = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - t_start;
  std::printf("{\"phases\": %ld, \"cpu_s\": %.6f", phases, cpu);
  if (calls) {
    const char *names[3] = {"M", "R", "A"};
    std::printf(", \"calls\": {");
    for (int i = 0; i < 3; ++i) {
      const Sums &s = sums[i];
      std::printf("%s\"%s\": {\"phases\": %ld, \"legal_s\": %.6f, \"choose_s\": %.6f, "
                  "\"set_orders_s\": %.6f, \"process_s\": %.6f}",
                  i ? ", " : "", names[i], s.phases, s.legal, s.choose, s.set,
                  s.process);
    }
    std::printf("}");
  }
  std::printf("}\n");
  return 0;
}
