// An Oclgrind plugin that counts what the technique checks judge, for each kernel launch:
// - global and local loads and stores (instructions of work-items; elements of async work-group copies);
// - coalescing: work-items are grouped into warps of 32 consecutive local ids; for each global load or store
//   instruction that a warp executes together, the distinct 128-byte segments touched (one per request is best);
// - bank conflicts: for each local access a warp executes together, the most distinct 4-byte words that fall in
//   one of 32 banks (1 per request is conflict-free; a 16-wide unpadded column read costs 8 or 16);
// - loads from the __constant address space (a filter in constant memory), which Oclgrind serves from its global
//   memory: told apart by the load instruction's address space where LLVM's headers were found at build time
//   (CLKIT_HAVE_LLVM), else reported as -1, not measured;
// - atomic operations on global and local memory (lab 10: a histogram merges one global atomic per bin);
// - additions of values loaded from local memory (lab 11: an add or fadd instruction one of whose operands is a load
//   from the __local address space, counted once per element of its result): the additions a scan makes in its
//   block, not the index arithmetic around them, and the most one work-item made; with LLVM's headers only, else -1;
// - the instructions the launch's work-items executed;
// - the kernel's name, last on the line, so that a lab of several kernels finds its launch.
// It also ends the process when a launch runs past the budget CLKIT_JUDGE_BUDGET gives it ("TOTAL ITEM COUNTED",
// which the runner sets for each case): more than TOTAL instructions in all, or more than ITEM executed by one
// work-item in a row (Oclgrind runs a work-item until it reaches a barrier or its end, so an endless loop in one
// work-item is found as soon as it has run ITEM instructions). It writes "clkit-budget launch=N instructions=M
// item_run=R kernel=K" to clkit-counts.txt and exits with CLKIT_BUDGET_EXIT (see grader/judge/lab_run.h). A hang is
// then found by the work simulated, the same on every machine, not by a clock. With COUNTED 0 the launch's accesses
// and additions are not recorded (its line counts none): the judge reads the counts of its technique case alone.
// The runner launches nothing but the kernel being judged. It appends one line per launch to clkit-counts.txt in the
// working directory, never to the output, where the kernel's own printf could imitate it.
#include <oclgrind/Context.h>
#include <oclgrind/Kernel.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/Memory.h>
#include <oclgrind/Plugin.h>
#include <oclgrind/WorkItem.h>

#ifdef CLKIT_HAVE_LLVM
#include <llvm/IR/Instructions.h>
#endif

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>

namespace
{
const size_t WARP = 32, SEGMENT = 128, BANKS = 32, WORD = 4;
const int BUDGET_EXIT = 86; // CLKIT_BUDGET_EXIT in grader/judge/lab_run.h

class Counting : public oclgrind::Plugin
{
public:
  explicit Counting(const oclgrind::Context* context) : Plugin(context) {}

  void kernelBegin(const oclgrind::KernelInvocation* invocation) override
  {
    local_ = invocation->getLocalSize();
    launch_++;
    std::fill(counts_, counts_ + 4, 0.0);
    constant_loads_ = 0.0;
    std::fill(atomics_, atomics_ + 2, 0.0);
    local_adds_ = 0.0;
    item_adds_.clear();
    kernel_ = invocation->getKernel()->getName();
    instructions_ = run_ = longest_run_ = 0;
    run_item_ = SIZE_MAX;
    budget_ = item_budget_ = 0;
    unsigned counted = 1; // without a budget (a host program under Oclgrind, the stride probe): every launch counts
    if (const char* budget = std::getenv("CLKIT_JUDGE_BUDGET"))
      std::sscanf(budget, "%llu %llu %u", &budget_, &item_budget_, &counted);
    counting_ = counted != 0;
  }

  // Every instruction counts against the launch's budget; an addition of a value loaded from local memory (a scan's
  // partial sums, not an index) is counted as well.
  void instructionExecuted(const oclgrind::WorkItem* item, const llvm::Instruction* instruction,
                           const oclgrind::TypedValue& result) override
  {
    size_t index = item->getGlobalIndex();
    if (index != run_item_) {
      run_item_ = index;
      run_ = 0;
    }
    longest_run_ = std::max(longest_run_, ++run_);
    if ((++instructions_ > budget_ && budget_ > 0) || (run_ > item_budget_ && item_budget_ > 0))
      over_budget();
#ifdef CLKIT_HAVE_LLVM
    if (!counting_)
      return;
    unsigned opcode = instruction->getOpcode();
    if (opcode != llvm::Instruction::Add && opcode != llvm::Instruction::FAdd)
      return;
    for (const llvm::Value* operand : instruction->operands()) {
      const llvm::LoadInst* load = llvm::dyn_cast<llvm::LoadInst>(operand);
      if (load && load->getPointerAddressSpace() == oclgrind::AddrSpaceLocal) {
        local_adds_ += result.num;
        item_adds_[item->getGlobalIndex()] += result.num;
        return;
      }
    }
#else
    (void)instruction, (void)result;
#endif
  }

  // Every atomic reads its location first (a read-modify-write, or an atomic load): one count per operation.
  void memoryAtomicLoad(const oclgrind::Memory* memory, const oclgrind::WorkItem*, oclgrind::AtomicOp, size_t,
                        size_t) override
  {
    unsigned space = memory->getAddressSpace();
    if (!counting_)
      return;
    if (space == oclgrind::AddrSpaceGlobal)
      atomics_[0]++;
    else if (space == oclgrind::AddrSpaceLocal)
      atomics_[1]++;
  }

  void memoryLoad(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, size_t address,
                  size_t size) override
  {
    record(memory, item, address, size, false);
  }

  void memoryStore(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, size_t address, size_t size,
                   const uint8_t*) override
  {
    record(memory, item, address, size, true);
  }

  // async_work_group_copy: the work-group moves the elements; staging through it counts as staging.
  void memoryLoad(const oclgrind::Memory* memory, const oclgrind::WorkGroup*, size_t, size_t size) override
  {
    count(memory, false, (size + WORD - 1) / WORD);
  }

  void memoryStore(const oclgrind::Memory* memory, const oclgrind::WorkGroup*, size_t, size_t size,
                   const uint8_t*) override
  {
    count(memory, true, (size + WORD - 1) / WORD);
  }

  // The maps are shared by every work-item: Oclgrind must call this plugin from one thread.
  bool isThreadSafe() const override { return false; }

  void kernelEnd(const oclgrind::KernelInvocation*) override
  {
    size_t requests[2] = {0, 0}, transactions[2] = {0, 0}, local_requests = 0, wavefronts = 0;
    for (const auto& entry : segments_) {
      bool store = std::get<4>(entry.first);
      requests[store]++;
      transactions[store] += entry.second.size();
    }
    for (const auto& entry : words_) {
      std::map<size_t, size_t> per_bank;
      size_t worst = 0;
      for (size_t word : entry.second)
        worst = std::max(worst, ++per_bank[word % BANKS]);
      local_requests++;
      wavefronts += worst;
    }
    if (FILE* out = std::fopen("clkit-counts.txt", "a")) {
      std::fprintf(out,
                   "clkit-counts launch=%zu global_loads=%.0f global_stores=%.0f local_loads=%.0f local_stores=%.0f "
                   "load_requests=%zu load_transactions=%zu store_requests=%zu store_transactions=%zu "
                   "local_requests=%zu local_wavefronts=%zu constant_loads=%.0f global_atomics=%.0f local_atomics=%.0f "
                   "local_adds=%.0f item_adds=%.0f instructions=%llu item_run=%llu kernel=%s\n",
                   launch_, counts_[0], counts_[1], counts_[2], counts_[3], requests[0], transactions[0],
                   requests[1], transactions[1], local_requests, wavefronts, constant_loads(), atomics_[0],
                   atomics_[1], local_adds(), most_item_adds(), instructions_, longest_run_,
                   safe_name().c_str());
      std::fclose(out);
    }
    segments_.clear();
    words_.clear();
    occurrences_.clear();
  }

private:
  // Says that the launch ran past its budget, where the judge reads it, and ends the process at once: the launch
  // would not end by itself, and Oclgrind offers a plugin no way to stop it.
  [[noreturn]] void over_budget() const
  {
    if (FILE* out = std::fopen("clkit-counts.txt", "a")) {
      std::fprintf(out, "clkit-budget launch=%zu instructions=%llu item_run=%llu kernel=%s\n", launch_,
                   instructions_, run_, safe_name().c_str());
      std::fclose(out);
    }
    std::_Exit(BUDGET_EXIT);
  }

  // A request: one instruction, executed by one warp, for the n-th time by its work-items.
  using Request = std::tuple<const void*, size_t, size_t, size_t, bool>;

  void count(const oclgrind::Memory* memory, bool store, double elements)
  {
    if (!counting_)
      return;
    unsigned space = memory->getAddressSpace();
    if (space == oclgrind::AddrSpaceGlobal)
      counts_[store ? 1 : 0] += elements;
    else if (space == oclgrind::AddrSpaceLocal)
      counts_[store ? 3 : 2] += elements;
  }

  double constant_loads() const
  {
#ifdef CLKIT_HAVE_LLVM
    return constant_loads_;
#else
    return -1.0;
#endif
  }

  double local_adds() const
  {
#ifdef CLKIT_HAVE_LLVM
    return local_adds_;
#else
    return -1.0;
#endif
  }

  // The most additions of local values one work-item made (a serial scan's one work-item makes them all).
  double most_item_adds() const
  {
    double most = 0.0;
    for (const auto& entry : item_adds_)
      most = std::max(most, entry.second);
    return local_adds() < 0 ? -1.0 : most;
  }

  // The kernel's name, as the line's last word: characters of an identifier only.
  std::string safe_name() const
  {
    std::string name;
    for (char c : kernel_.substr(0, 64))
      name += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '?';
    return name.empty() ? "?" : name;
  }

  // A load through a __constant pointer, which Oclgrind serves from its global memory.
  static bool from_constant(const oclgrind::WorkItem* item)
  {
#ifdef CLKIT_HAVE_LLVM
    const llvm::LoadInst* load = llvm::dyn_cast_or_null<llvm::LoadInst>(item->getCurrentInstruction());
    return load && load->getPointerAddressSpace() == oclgrind::AddrSpaceConstant;
#else
    (void)item;
    return false;
#endif
  }

  void record(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, size_t address, size_t size,
              bool store)
  {
    unsigned space = memory->getAddressSpace();
    if (!counting_)
      return;
    if (space == oclgrind::AddrSpaceConstant || (!store && from_constant(item))) {
      constant_loads_++;
      return;
    }
    if (space != oclgrind::AddrSpaceGlobal && space != oclgrind::AddrSpaceLocal)
      return;
    count(memory, store, 1);
    const void* instruction = item->getCurrentInstruction();
    oclgrind::Size3 id = item->getLocalID(), global = item->getGlobalID();
    size_t linear = id.x + local_.x * (id.y + local_.y * id.z);
    // The work-group, from the global and local ids: unique for any grid of fewer than 2^20 groups a side.
    size_t group = global.x / local_.x + ((global.y / local_.y) << 20) + ((global.z / local_.z) << 40);
    size_t occurrence = occurrences_[std::make_pair(item->getGlobalIndex(), instruction)]++;
    Request request(instruction, group, linear / WARP, occurrence, store);
    if (space == oclgrind::AddrSpaceLocal) {
      std::set<size_t>& words = words_[request];
      for (size_t word = address / WORD; word <= (address + size - 1) / WORD; word++)
        words.insert(word);
      return;
    }
    std::set<size_t>& touched = segments_[request];
    for (size_t segment = address / SEGMENT; segment <= (address + size - 1) / SEGMENT; segment++)
      touched.insert(segment);
  }

  oclgrind::Size3 local_;
  size_t launch_ = 0;
  double counts_[4] = {0, 0, 0, 0}; // global loads, global stores, local loads, local stores
  double constant_loads_ = 0.0;
  double atomics_[2] = {0, 0};      // global, local
  double local_adds_ = 0.0;
  std::map<size_t, double> item_adds_;
  std::string kernel_;
  // This launch's instructions, those of the work-item running now in a row, and its budgets (0: none).
  unsigned long long instructions_ = 0, run_ = 0, longest_run_ = 0, budget_ = 0, item_budget_ = 0;
  size_t run_item_ = SIZE_MAX;
  bool counting_ = true; // this launch's accesses and additions are recorded
  std::map<Request, std::set<size_t>> segments_, words_;
  std::map<std::pair<size_t, const void*>, size_t> occurrences_;
};
} // namespace

extern "C" void initializePlugins(oclgrind::Context* context)
{
  context->registerPlugin(new Counting(context));
}

extern "C" void releasePlugins(oclgrind::Context*)
{
  // Oclgrind destroys the context, and with it the registered plugin, after this call.
}
