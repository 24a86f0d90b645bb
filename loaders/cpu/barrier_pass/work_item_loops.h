// The anygpu barrier pass (docs/cpu-barrier-pass.md): turns each kernel's block entry, emitted by
// include/anygpu/detail/kernel_host.h under ANYGPU_WORKITEM_LOOPS, into loops over the block's
// threads, split at its barriers, so that the CPU backend runs a block with no fiber.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class Loop;
}

namespace anygpu_pass {

// Names shared with kernel_host.h.
inline constexpr const char* kBlockPrefix = "agk_wi_block_";   // void(void** params, ctx*)
inline constexpr const char* kStatePrefix = "agk_wi_state_";   // set to 1 once transformed
inline constexpr const char* kLocalId = "agk_wi_local_id";     // unsigned(ctx*, unsigned dim)
inline constexpr const char* kBarrier = "agk_wi_barrier";      // void(ctx*, x, y, z, ctx**)
inline constexpr const char* kDivergent = "agk_wi_divergent";  // void(ctx*), never returns
// ull(ctx*, mask, value, const ull** values): every warp function's exchange (kernel_host.h)
inline constexpr const char* kWarpExchange = "agk_wi_warp_exchange";
// i64(i32 linear thread id): the lanes of that thread's warp that returned before the exchange
// the call follows. Made by prepare(), replaced by build_loops().
inline constexpr const char* kExitedLanes = "agk_wi_exited_lanes";
// i64(i64 counter, i64 copy, i64 copies): how many times the thread took its grid-stride loop's
// back edge, in copy `copy` of a loop unrolled `copies` times. Made by find_strided_loops();
// build_loops() makes it pass * copies + copy in a soft region (each pass runs `copies`
// iterations), elsewhere the counter.
inline constexpr const char* kLoopTrips = "agk_wi_loop_trips";
// i64(i64 pass count): a soft region's pass count (build_loops()), a marker until
// prefetch_grid_stride_passes() has found the addresses it reaches, then the count itself.
inline constexpr const char* kPassCount = "agk_wi_pass_count";
// i32(wait_at, masks, after_exchange, threads, warp_size): the next region of a block whose threads
// may wait at a warp exchange and elsewhere at once (warp_host.h).
inline constexpr const char* kSchedule = "agk_wi_schedule";
// The CPU device's warp width (AGK_HOST_WARP_SIZE, kernel_host_abi.h): warps are threads
// [32 k, 32 k + 32) of a block in linear order.
inline constexpr unsigned kWarpSize = 32;
// The most threads a CPU block has (the backend's max_threads_per_block).
inline constexpr unsigned kMaxThreads = 1024;
// agk_thread_ctx (kernel_host_abi.h): thread_idx at 0, then block_idx, block_dim, grid_dim, ...
// Only thread_idx changes while a block runs.
inline constexpr uint64_t kCtxBlockDim = 24;
inline constexpr uint64_t kCtxGridDim = 36;
inline constexpr uint64_t kCtxFirstInvariant = 12;
// Marks the per-thread copies of a slot ([kMaxThreads x T] allocas), which loops over threads
// may access in parallel.
inline constexpr const char* kPerThreadMetadata = "anygpu.per_thread";
// Per-thread storage of values that live across barriers, at most, per thread.
inline constexpr uint64_t kMaxBytesPerThread = 4096;

struct Prepared {
  llvm::BasicBlock* prologue = nullptr;  // allocas, and values every thread of the block shares
  llvm::BasicBlock* body = nullptr;      // the original entry: where the first region starts
  std::vector<llvm::BasicBlock*> barrier_blocks;  // each holds one barrier and a branch
  // The barrier blocks that stand for a warp exchange: each lane stored its value in `given`
  // before it; the region after it reads the warp's values from `taken`, a copy made between
  // the two regions (so that a lane giving its next value cannot overwrite one still read).
  llvm::SmallPtrSet<llvm::BasicBlock*, 8> exchange_blocks;
  llvm::AllocaInst* masks = nullptr;  // [kMaxThreads x i64]: the mask each lane gave, or null
                                      // without warp functions
  llvm::AllocaInst* given = nullptr;  // [kMaxThreads x i64], or null where no exchange needs it
  llvm::AllocaInst* taken = nullptr;  // the same
  // [kMaxThreads x i32]: `given` and `taken` of the exchanges whose values fit 32 bits
  // (narrow_exchanges.cpp), or null where none does.
  llvm::AllocaInst* given_narrow = nullptr;
  llvm::AllocaInst* taken_narrow = nullptr;
  unsigned exchanges = 0, narrow_exchanges = 0;  // how many; how many of them use the above
  unsigned unrolled_loops = 0;                   // grid-stride loops run two iterations a pass
  // Barrier blocks that are the back edges of grid-stride loops (strided_loops.cpp): the region
  // after one runs again for the threads still in the loop, before any thread goes on.
  llvm::SmallPtrSet<llvm::BasicBlock*, 4> soft_blocks;
};

struct StridedLoop {
  llvm::BasicBlock* header;
  llvm::BasicBlock* latch;
  bool by_grid;  // its stride depends on gridDim: it walks a whole array, in many passes
};

bool is_call_to(const llvm::Instruction& instruction, llvm::StringRef name);

// Inlines every call with a body and checks for what the loops cannot express. Returns why the
// kernel must stay on fibers, or an empty string.
std::string inline_calls(llvm::Function& entry);

// After clean_up(): hoists the block's shared values, isolates barriers and demotes to memory
// every value used outside its basic block that cannot be recomputed there.
std::string prepare(llvm::Function& entry, Prepared& out);

// Before demotion: the outermost barrier-free loops that step an induction variable by a
// block-wide value (grid-stride loops), at most one between two barriers (warp exchanges among
// them). Needs the prologue and the barrier blocks.
std::vector<StridedLoop> find_strided_loops(llvm::Function& entry, const Prepared& prepared);

// After demotion: a soft barrier block on each such loop's back edge.
// After demotion (no PHI, no value used outside its block): each grid-stride loop whose body is
// small and reads one element of global memory runs two iterations per pass, its body cloned
// along the back edge. Updates the latches; returns how many loops it unrolled.
unsigned unroll_strided_loops(llvm::Function& entry, std::vector<StridedLoop>& loops);
void add_soft_back_edges(llvm::Function& entry, const std::vector<StridedLoop>& loops,
                         Prepared& out);

// Splits the prepared entry into regions between barriers and runs each as loops over the
// threads. Returns why it cannot, or an empty string, and what became of its grid-stride loops.
struct SoftLoops {
  unsigned kept = 0;      // run a step at a time for all threads
  std::string whole_why;  // else, where there were some: why they stay whole loops
};
std::string build_loops(llvm::Function& entry, const Prepared& prepared, SoftLoops& soft);

// Makes the atomics on thread-local storage (a block's shared memory) plain read-modify-writes:
// no other OS thread can see them. Returns how many it lowered.
unsigned lower_block_local_atomics(llvm::Function& entry);

// Takes back the parallel mark of thread loops that still touch a stack slot every thread shares
// (a private array the cleanup could not make registers): their iterations would clobber it.
void drop_unsafe_parallel_marks(llvm::Function& entry, llvm::FunctionAnalysisManager& analyses);

// After the clean-up: thread loops whose body is guarded by `threadIdx.x < d` end at d. Returns how
// many it shortened.
unsigned shorten_guarded_thread_loops(llvm::Function& entry,
                                      llvm::FunctionAnalysisManager& analyses);

// A thread loop's bound: its latch leaves when `counter + 1` reaches it (ult or ne; on the true
// side when header_on_true). nullptr where the latch is not of that form.
llvm::Value* thread_loop_bound(llvm::Loop& loop, llvm::PHINode* counter, bool& header_on_true);

// The kWarpExchange calls whose values fit 32 bits: each gives a zero-extended 32-bit value, as
// does every exchange that returns its pointer through the same local, and each read through
// that pointer is a plain load of one lane's value. Those reads now load 4-byte slots there.
llvm::SmallPtrSet<llvm::CallInst*, 8> narrow_exchanges(llvm::ArrayRef<llvm::CallInst*> exchanges);

// After the clean-up: before each thread loop of a grid-stride loop's pass, prefetches of the lines
// its accesses touch a few passes later; then the kPassCount markers become their counts.
// Returns how many address ranges it prefetches.
unsigned prefetch_grid_stride_passes(llvm::Function& entry,
                                     llvm::FunctionAnalysisManager& analyses);

// Scalar cleanup after inlining, and after the rewrite so that the vectorizer sees plain loops.
void clean_up(llvm::Function& entry, llvm::FunctionAnalysisManager& analyses, bool rewritten);

struct MarkConvergentPass : llvm::PassInfoMixin<MarkConvergentPass> {
  llvm::PreservedAnalyses run(llvm::Module& module, llvm::ModuleAnalysisManager& analyses);
};

// Points calls to libm's exponentials, logarithms and erf at math_host_vector.h's twins.
struct VectorMathPass : llvm::PassInfoMixin<VectorMathPass> {
  llvm::PreservedAnalyses run(llvm::Module& module, llvm::ModuleAnalysisManager& analyses);
};

// Drops the initialisation-function test from every access to an extern __shared__ array.
struct ExternSharedPass : llvm::PassInfoMixin<ExternSharedPass> {
  llvm::PreservedAnalyses run(llvm::Module& module, llvm::ModuleAnalysisManager& analyses);
};

struct WorkItemLoopsPass : llvm::PassInfoMixin<WorkItemLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Module& module, llvm::ModuleAnalysisManager& analyses);
};

}  // namespace anygpu_pass
