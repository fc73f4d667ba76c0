// The spec's `cache` snapshot of a model Cache, shared by the cache-layer and
// scheduler-layer systems.
#ifndef SCHEDTRACE_MODEL_CACHE_SNAPSHOT_H_
#define SCHEDTRACE_MODEL_CACHE_SNAPSHOT_H_

#include "core/state.h"
#include "model/cache.h"

namespace schedtrace::model {

// NodeInfos sorted by name (placeholders with present=false), their pods as
// sorted keys (duplicates kept), requested without zeros; assumed and
// bindingFinished pods as sorted keys.
CacheState SnapshotCache(const Cache& cache);
// The same value written into `out`, reusing the storage it holds
// (core/refill.h).
void SnapshotCacheInto(const Cache& cache, CacheState& out);

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_CACHE_SNAPSHOT_H_
