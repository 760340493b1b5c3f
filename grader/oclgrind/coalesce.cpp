// An Oclgrind plugin that measures coalescing: work-items are grouped into warps of 32 consecutive
// local ids; for each global load or store instruction that a warp executes together, it counts the
// distinct 128-byte segments touched. It prints, at the end of each kernel, the requests and the
// transactions of the loads and of the stores: one transaction per request is perfectly coalesced.
#include <oclgrind/Context.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/Memory.h>
#include <oclgrind/Plugin.h>
#include <oclgrind/WorkItem.h>

#include <cstdio>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace
{
const size_t WARP = 32, SEGMENT = 128;

class Coalescing : public oclgrind::Plugin
{
public:
  explicit Coalescing(const oclgrind::Context* context) : Plugin(context) {}

  void kernelBegin(const oclgrind::KernelInvocation* invocation) override
  {
    local_ = invocation->getLocalSize();

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

  // The maps are shared by every work-item: Oclgrind must call this plugin from one thread.
  bool isThreadSafe() const override { return false; }

  void kernelEnd(const oclgrind::KernelInvocation*) override
  {
    size_t requests[2] = {0, 0}, transactions[2] = {0, 0};
    for (const auto& entry : segments_) {
      bool store = std::get<4>(entry.first);
      requests[store]++;
      transactions[store] += entry.second.size();
    }
    std::printf("clkit-coalescing load_requests=%zu load_transactions=%zu store_requests=%zu "
                "store_transactions=%zu\n",
                requests[0], transactions[0], requests[1], transactions[1]);
    std::fflush(stdout);
    segments_.clear();
    occurrences_.clear();
  }

private:
  // A request: one instruction, executed by one warp, for the n-th time by its work-items.
  using Request = std::tuple<const void*, size_t, size_t, size_t, bool>;

  void record(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, size_t address, size_t size,
              bool store)
  {
    if (memory->getAddressSpace() != oclgrind::AddrSpaceGlobal)
      return;
    const void* instruction = item->getCurrentInstruction();
    oclgrind::Size3 id = item->getLocalID(), global = item->getGlobalID();
    size_t linear = id.x + local_.x * (id.y + local_.y * id.z);
    // The work-group, from the global and local ids: unique for any grid of fewer than 2^20 groups a side.
    size_t group = global.x / local_.x + ((global.y / local_.y) << 20) + ((global.z / local_.z) << 40);
    size_t occurrence = occurrences_[std::make_pair(item->getGlobalIndex(), instruction)]++;
    Request request(instruction, group, linear / WARP, occurrence, store);
    std::set<size_t>& touched = segments_[request];
    for (size_t segment = address / SEGMENT; segment <= (address + size - 1) / SEGMENT; segment++)
      touched.insert(segment);
  }

  oclgrind::Size3 local_;
  std::map<Request, std::set<size_t>> segments_;
  std::map<std::pair<size_t, const void*>, size_t> occurrences_;
};
} // namespace

extern "C" void initializePlugins(oclgrind::Context* context)
{
  context->registerPlugin(new Coalescing(context));
}

extern "C" void releasePlugins(oclgrind::Context*)
{
  // Oclgrind destroys the context, and with it the registered plugin, after this call.
}
