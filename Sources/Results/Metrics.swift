/// The metrics `cachebench run` reports (docs/metrics.md, docs/csv.md), each defined once, here,
/// where both the workbench that measures them and what reads results back (the report, `compare`,
/// `merge`) name them: the same operation is always behind the same name, and no reader spells a
/// metric's name itself.
extension Metric {
  // Parse, write and read, per response.
  /// Parsing one response's JSON: not part of the write, but what an app pays before it.
  package static let parseLatency = Metric(.parse, "latency", unit: .ns, deterministic: false)
  /// Normalizing one response and merging its records.
  package static let writeLatency = Metric(.write, "latency", unit: .ns, deterministic: false)
  package static let normalizeLatency = Metric(.normalize, "latency", unit: .ns, deterministic: false)
  package static let mergeLatency = Metric(.merge, "latency", unit: .ns, deterministic: false)
  /// Reading one operation back from the store.
  package static let readLatency = Metric(.read, "latency", unit: .ns, deterministic: false)

  // Fragment reads: a keyed record read back by its key (`read.fragments`).
  package static let fragmentLatency = Metric(.fragment, "latency", unit: .ns, deterministic: false)
  package static let fragmentLoadsPerRead = Metric(.fragment, "loads_per_read", unit: .count, deterministic: true)
  package static let fragmentKeysPerRead = Metric(.fragment, "keys_per_read", unit: .count, deterministic: true)

  // Watchers (`read.watchers`): per refetch written, the watchers it woke; the re-reads.
  package static let invalidations = Metric(.watch, "invalidations", unit: .count, deterministic: true)
  package static let rereadLatency = Metric(.watch, "reread_latency", unit: .ns, deterministic: false)
  /// Per refetch, the watchers it would wake if a dependent key named only its record (any change
  /// to a record read wakes): the woken of ``invalidations`` and those woken for fields never read.
  package static let invalidationsByRecord = Metric(.watch, "invalidations_by_record", unit: .count, deterministic: true)
  /// Per watcher read, the records it depends on, each once.
  package static let dependentRecords = Metric(.watch, "dependent_records", unit: .count, deterministic: true)
  /// Per watcher read, its dependent keys `recordKey.fieldKey`.
  package static let dependentFields = Metric(.watch, "dependent_fields", unit: .count, deterministic: true)
  /// Per refetch, checking every watcher's dependent keys against its changed keys, by field
  /// (what decides ``invalidations``) and by record (``invalidationsByRecord``).
  package static let checkLatency = Metric(.watch, "check_latency", unit: .ns, deterministic: false)
  package static let checkLatencyByRecord = Metric(.watch, "check_latency_by_record", unit: .ns, deterministic: false)
  /// Re-reads whose result differs from the watcher's last one, of all re-reads: the rest were
  /// woken for nothing.
  package static let changedShare = Metric(.watch, "changed_share", unit: .ratio, better: .higher, deterministic: true)

  // Allocations, counted in a pass of their own.
  package static let writeAllocations = Metric(.write, "allocations", unit: .count, deterministic: true)
  package static let writeAllocatedBytes = Metric(.write, "allocated_bytes", unit: .bytes, deterministic: true)
  package static let readAllocations = Metric(.read, "allocations", unit: .count, deterministic: true)
  package static let readAllocatedBytes = Metric(.read, "allocated_bytes", unit: .bytes, deterministic: true)

  // Instructions, counted under callgrind in a pass of their own (`run --instructions`).
  /// The instructions of one phase's calls: one name in every phase, which `compare` judges on
  /// the mean within 0.5% and `merge` puts after every configuration's own rows.
  package static func instructions(_ phase: Phase) -> Metric {
    Metric(phase, "instructions", unit: .count, deterministic: true)
  }
  package static let parseInstructions = instructions(.parse)
  package static let writeInstructions = instructions(.write)
  package static let normalizeInstructions = instructions(.normalize)
  package static let mergeInstructions = instructions(.merge)
  package static let readInstructions = instructions(.read)

  // Lookups.
  package static let loadsPerRead = Metric(.lookup, "loads_per_read", unit: .count, deterministic: true)
  package static let keysPerRead = Metric(.lookup, "keys_per_read", unit: .count, deterministic: true)
  /// Fields and bytes of the records those loads lent (less with projected reads, in the layouts
  /// that project).
  package static let fieldsLoaded = Metric(.lookup, "fields_loaded", unit: .count, deterministic: true)
  package static let bytesLoaded = Metric(.lookup, "bytes_loaded", unit: .bytes, deterministic: true)
  package static let hitRatio = Metric(.lookup, "hit_ratio", unit: .ratio, better: .higher, deterministic: true)
  /// Time inside the store's loads during one read.
  package static let loadTime = Metric(.lookup, "load_time", unit: .ns, deterministic: false)
  /// `loadRecords(forKeys:)` of one random existing key.
  package static let pointLookup = Metric(.lookup, "point_lookup", unit: .ns, deterministic: false)
  /// A read of one entity through a root field's `@fieldPolicy`.
  package static let fieldPolicyLookup = Metric(.lookup, "field_policy_lookup", unit: .ns, deterministic: false)
  package static let fieldPolicyHitRatio = Metric(
    .lookup, "field_policy_hit_ratio", unit: .ratio, better: .higher, deterministic: true)

  // Deduplication.
  package static let objects = Metric(.dedup, "objects", unit: .count, better: .higher, deterministic: true)
  package static let records = Metric(.dedup, "records", unit: .count, deterministic: true)
  package static let objectRatio = Metric(.dedup, "object_ratio", unit: .ratio, better: .higher, deterministic: true)
  package static let responseBytes = Metric(.dedup, "response_bytes", unit: .bytes, better: .higher, deterministic: true)
  package static let storeBytes = Metric(.dedup, "store_bytes", unit: .bytes, deterministic: true)
  package static let byteRatio = Metric(.dedup, "byte_ratio", unit: .ratio, better: .higher, deterministic: true)

  // The store-level benchmark.
  package static let mergeNewPerRecord = Metric(.merge, "merge_new_per_record", unit: .ns, deterministic: false)
  package static let mergeUnchangedPerRecord = Metric(.merge, "merge_unchanged_per_record", unit: .ns, deterministic: false)
  package static let mergeAllocationsPerRecord = Metric(.merge, "allocations_per_record", unit: .count, deterministic: true)
  package static let loadBatchPerKey = Metric(.lookup, "load_batch_per_key", unit: .ns, deterministic: false)
  package static let loadAllPerKey = Metric(.lookup, "load_all_per_key", unit: .ns, deterministic: false)
  package static let loadAllocationsPerBatch = Metric(.lookup, "allocations_per_batch", unit: .count, deterministic: true)

  // Apollo iOS's Tier-2 cache scenarios (docs/apollo.md): one iteration each, named as their
  // scenarios are (`tier2.<backend>.<name>`), so that `export --format apollo` names them alike.
  /// `loadRecords(forKeys:)` of the one key of a store holding one ten-field record.
  package static let tier2SingleKeyLoad = Metric(.tier2, "single_key_load_10_fields", unit: .ns, deterministic: false)
  /// `loadRecords(forKeys:)` of the 100 keys of a store holding 100 ten-field records.
  package static let tier2BatchLoad = Metric(.tier2, "batch_load_100_records", unit: .ns, deterministic: false)
  /// A new ten-field record built and merged, a distinct key per iteration.
  package static let tier2SingleRecordMerge = Metric(.tier2, "single_record_merge_10_fields", unit: .ns, deterministic: false)
  /// 1,000 ten-field records merged into a fresh store.
  package static let tier2ManyRecordMerge = Metric(.tier2, "many_record_merge_1000_records", unit: .ns, deterministic: false)
  /// `removeRecords(matching: "User_")` among 10,000 `User_` and 1,000 other records.
  package static let tier2PatternDelete = Metric(.tier2, "pattern_delete_10k_records", unit: .ns, deterministic: false)
  // The projected loads the perf plan's 2026-07-13 amendment adds to Tier 2 (ADR 0007): each a
  // store's projected load (`lendRecords(forKeys:projection:to:)`), Apollo's `loadFields`.
  /// `record_0`'s `field_0`, `field_1` and `field_2` in a store holding it alone.
  package static let tier2ProjectedLoad = Metric(.tier2, "projected_load_3_of_10_fields", unit: .ns, deterministic: false)
  /// The same three fields of each of the 100 records of a store holding those 100.
  package static let tier2ProjectedBatchLoad = Metric(
    .tier2, "projected_batch_load_3_of_10_fields_100_records", unit: .ns, deterministic: false)
  /// `List:0`'s `title` and its list of 100 references, in a store holding 100 such records.
  package static let tier2ProjectedListLoad = Metric(.tier2, "projected_list_load_100_elements", unit: .ns, deterministic: false)
  /// A record of one type case's 8 fields, asked for the 40 fields of its 5 type cases and `__typename`.
  package static let tier2InlineFragmentOverfetch = Metric(
    .tier2, "inline_fragment_overfetch_40_fields_8_used", unit: .ns, deterministic: false)
  /// The over-fetch's decision gate's baseline (the perf plan's "matched-type-case-only
  /// baseline"): the same record asked for its own type case's 8 fields alone.
  package static let tier2MatchedTypeCaseOnly = Metric(
    .tier2, "inline_fragment_matched_type_case_only_8_fields", unit: .ns, deterministic: false)
  /// The four projected loads, in the order they run, and the over-fetch's baseline after it.
  package static let tier2ProjectedScenarios = [
    tier2ProjectedLoad, tier2ProjectedBatchLoad, tier2ProjectedListLoad, tier2InlineFragmentOverfetch, tier2MatchedTypeCaseOnly,
  ]
  /// `tier2/overfetch_gate_ratio`: the over-fetch's mean over its matched-type-case-only
  /// baseline's, in one store (``OverfetchGate``: the perf plan's decision gate, regressed at 1.05).
  package static let tier2OverfetchGateRatio = Metric(.tier2, "overfetch_gate_ratio", unit: .ratio, deterministic: false)
  /// `tier2/overfetch_gate_instructions_ratio`: the same ratio of one iteration's instructions
  /// each (`run --instructions`), deterministic.
  package static let tier2OverfetchGateRatioInstructions = Metric(
    .tier2, "overfetch_gate_instructions_ratio", unit: .ratio, deterministic: true)
  /// The ten, in the order they run and their rows come: the plan's table's order.
  package static let tier2Scenarios =
    [tier2SingleKeyLoad, tier2BatchLoad] + tier2ProjectedScenarios + [
      tier2SingleRecordMerge, tier2ManyRecordMerge, tier2PatternDelete,
    ]
  /// `tier2/<projected scenario>_fields`: the fields of the records a projected load lent in one
  /// iteration (deterministic): what the store left out, or did not.
  package static func tier2FieldsLoaded(_ scenario: Metric) -> Metric {
    Metric(.tier2, scenario.name + "_fields", unit: .count, deterministic: true)
  }
  /// `tier2/<projected scenario>_allocations`: the allocation requests of one projected load
  /// (deterministic), after the timed ones.
  package static func tier2Allocations(_ scenario: Metric) -> Metric {
    Metric(.tier2, scenario.name + "_allocations", unit: .count, deterministic: true)
  }
  /// `tier2/<projected scenario>_allocated_bytes`: the bytes that load allocated, at jemalloc's
  /// size classes, freed or not.
  package static func tier2AllocatedBytes(_ scenario: Metric) -> Metric {
    Metric(.tier2, scenario.name + "_allocated_bytes", unit: .bytes, deterministic: true)
  }
  /// `tier2/<scenario>_instructions`: one iteration of a Tier-2 scenario counted under callgrind
  /// (`run --instructions`), set up as its timed iterations are.
  package static func tier2Instructions(_ scenario: Metric) -> Metric {
    Metric(.tier2, scenario.name + instructionsSuffix, unit: .count, deterministic: true)
  }
  static let instructionsSuffix = "_instructions"
  /// `tier2/<scenario>_at_<records>x<fields>`: one iteration of a Tier-2 scenario in a store that
  /// also holds `records` background records of `fields` fields (docs/metrics.md#growth).
  package static func tier2(_ scenario: Metric, atRecords records: Int, fields: Int) -> Metric {
    Metric(.tier2, "\(scenario.name)_at_\(records)x\(fields)", unit: .ns, deterministic: false)
  }
  /// `tier2/<scenario>_fsyncs`: the syncs SQLite asked for in one iteration of a Tier-2 scenario
  /// (each an fsync: the floor of a durable write); 0 for a store that is not SQLite's.
  package static func tier2Fsyncs(_ scenario: Metric) -> Metric {
    Metric(.tier2, scenario.name + "_fsyncs", unit: .count, deterministic: true)
  }
  /// `tier2/<scenario>_writes`: the writes SQLite made to its files in one iteration.
  package static func tier2Writes(_ scenario: Metric) -> Metric {
    Metric(.tier2, scenario.name + "_writes", unit: .count, deterministic: true)
  }

  // Apollo iOS's Tier-3 "SQLite raw operations" (docs/apollo.md#tier-3), on a store of
  // `apolloTier3.records` records built once per layout: one sample per measured iteration.
  /// One record of one Int field inserted in a transaction (removed after the clock).
  package static let tier3Insert = Metric(.tier3, "insert_one_field", unit: .ns, deterministic: false)
  /// `SELECT *` of one key (in a store: `loadRecords(forKeys:)` of it).
  package static let tier3ExactKey = Metric(.tier3, "select_exact_key", unit: .ns, deterministic: false)
  /// `LIKE` of a prefix, a middle and a suffix pattern on the key.
  package static let tier3LikePrefix = Metric(.tier3, "select_like_prefix", unit: .ns, deterministic: false)
  package static let tier3LikeMiddle = Metric(.tier3, "select_like_middle", unit: .ns, deterministic: false)
  package static let tier3LikeSuffix = Metric(.tier3, "select_like_suffix", unit: .ns, deterministic: false)
  /// The records of one type (a tenth of the store), a selection set's fields, `ORDER BY` key.
  package static let tier3Selection = Metric(.tier3, "select_type_selection_set_ordered", unit: .ns, deterministic: false)
  /// One field of one record set by its composite key (in the blob layouts' stores, a one-field merge).
  package static let tier3Update = Metric(.tier3, "update_composite_key", unit: .ns, deterministic: false)
  /// The records of one type sorted by `mass` through a CTE join.
  package static let tier3Sort = Metric(.tier3, "sort_by_field_cte", unit: .ns, deterministic: false)
  /// The scenarios, in the order they run and their rows come: the plan's table's order.
  package static let tier3Scenarios = [
    tier3Insert, tier3ExactKey, tier3LikePrefix, tier3LikeMiddle, tier3LikeSuffix, tier3Selection, tier3Update, tier3Sort,
  ]
  /// §7.4's gates (`cache-rewrite-phase1-plan.md`), which Apollo sets for an iPhone 16 Pro: the
  /// most a scenario's p50 may take, in nanoseconds.
  package static let tier3Gates: [Metric: Double] = [
    tier3ExactKey: 200_000, tier3Selection: 50_000_000, tier3Update: 1_000_000, tier3Sort: 250_000_000, tier3Insert: 1_000_000,
  ]
  /// Building the store once, through the layout's own merges (one sample; a floor opens a copy).
  package static let tier3Build = Metric(.tier3, "build_store", unit: .ns, deterministic: false)
  /// The records the store holds once built (deterministic).
  package static let tier3Records = Metric(.tier3, "store_records", unit: .count, deterministic: true)
  /// The store's file once built (deterministic for a seed and a layout).
  package static let tier3FileBytes = Metric(.tier3, "store_file_bytes", unit: .bytes, deterministic: true)
  /// `tier3/<metric>_at_<records>x<fields>`: a Tier-3 row (a scenario, the build, the records or
  /// the file) of the store of `records` records of `fields` fields (`apolloTier3.sizes`,
  /// docs/metrics.md#growth), its unit and direction the metric's own.
  package static func tier3(_ metric: Metric, atRecords records: Int, fields: Int) -> Metric {
    Metric(.tier3, "\(metric.name)_at_\(records)x\(fields)", unit: metric.unit, better: metric.better, deterministic: metric.deterministic)
  }

  // Lists (`lists` workloads, docs/metrics.md#lists): records with a list of N elements, under
  // names that carry the scenario, so that one row holds one operation on one kind and size.
  /// `lists/<operation>_<elements>_<size>` (`read_scalars_100`, `mutate_nested_10`): one iteration
  /// of the scenario, in nanoseconds.
  package static func list(_ scenario: ListScenario) -> Metric {
    Metric(.lists, "\(scenario.operation.rawValue)_\(scenario.elements.rawValue)_\(scenario.size)", unit: .ns, deterministic: false)
  }

  /// `lists/bytes_per_record_<elements>_<size>`: a store's bytes, checkpointed where it has a
  /// steady state, per record holding such a list.
  package static func listBytesPerRecord(_ elements: ListScenario.Elements, size: Int) -> Metric {
    Metric(.lists, "bytes_per_record_\(elements.rawValue)_\(size)", unit: .bytes, deterministic: true)
  }

  /// `lists/growth_<operation>_<elements>` (`growth_mutate_references`): k of the scenario's
  /// p50 ∝ Nᵏ over the run's list sizes (``growth(_:phase:)``).
  package static func listGrowth(_ operation: ListScenario.Operation, _ elements: ListScenario.Elements) -> Metric {
    growth("\(operation.rawValue)_\(elements.rawValue)", phase: .lists)
  }

  // Growth (docs/metrics.md#growth): how a scenario's cost grows with a size, fitted over the
  // run's sizes, one value each.
  /// `<phase>/growth_<name>`: k of cost ∝ nᵏ (``Growth/exponent``), fitted to the p50s.
  package static func growth(_ name: String, phase: Phase) -> Metric {
    Metric(phase, "growth_" + name, unit: .exponent, deterministic: false)
  }
  /// `<phase>/growth_ratio_<name>`: the p50 at the largest size over the p50 at 1,000 (or the
  /// smallest size) (``Growth/ratio``).
  package static func growthRatio(_ name: String, phase: Phase) -> Metric {
    Metric(phase, "growth_ratio_" + name, unit: .ratio, deterministic: false)
  }

  // Traffic (docs/bounded-and-concurrent.md): an app session's steps.
  /// Reads served whole, of all reads.
  package static let trafficHitRatio = Metric(.traffic, "hit_ratio", unit: .ratio, better: .higher, deterministic: true)
  /// Reads that missed but found records below the operation's root (part of what they read), of all reads.
  package static let partialMissShare = Metric(.traffic, "partial_miss_share", unit: .ratio, deterministic: true)
  /// The JSON bytes a network would have sent: every response fetched after a miss, and every refetch.
  package static let fetchedBytes = Metric(.traffic, "fetched_bytes", unit: .bytes, deterministic: true)
  /// Records evicted to stay within the budget, per step.
  package static let evictions = Metric(.traffic, "evictions", unit: .count, deterministic: true)
  /// Records that expired, in all.
  package static let expirations = Metric(.traffic, "expirations", unit: .count, deterministic: true)
  /// Evictions and expirations of records the watched operations' last reads depended on.
  package static let watchedEvictions = Metric(.traffic, "watched_evictions", unit: .count, deterministic: true)
  /// The budget in bytes the store kept to (a share resolved); a chain's is its front's.
  package static let budgetBytes = Metric(.traffic, "budget_bytes", unit: .bytes, deterministic: true)
  /// The most bytes the store accounted after any step.
  package static let peakStoreBytes = Metric(.traffic, "peak_store_bytes", unit: .bytes, deterministic: true)
  package static let trafficReadLatency = Metric(.traffic, "read_latency", unit: .ns, deterministic: false)
  /// A fetch or refetch written: normalized and merged (evictions included).
  package static let trafficWriteLatency = Metric(.traffic, "write_latency", unit: .ns, deterministic: false)
  /// A write's time per record it merged.
  package static let writePerRecord = Metric(.traffic, "write_per_record", unit: .ns, deterministic: false)
  /// A write's merge alone (evictions and, for SQLite, the usage rows included) per record merged.
  package static let mergePerRecord = Metric(.traffic, "merge_per_record", unit: .ns, deterministic: false)
  /// The store's time evicting (choosing and deleting), per record evicted.
  package static let evictionPerRecord = Metric(.traffic, "eviction_per_record", unit: .ns, deterministic: false)
  /// A chain's reads: keys its front served, of all keys found.
  package static let frontHitRatio = Metric(.traffic, "front_hit_ratio", unit: .ratio, better: .higher, deterministic: true)
  /// A chain's front: records it evicted (still in the back), in all.
  package static let frontEvictions = Metric(.traffic, "front_evictions", unit: .count, deterministic: true)

  // Traffic with dates (docs/ttl.md#traffic-with-dates): only for a store with dates.
  /// Reads that missed only because a field they select expired (strict), of all reads.
  package static let ttlMissShare = Metric(.traffic, "ttl_miss_share", unit: .ratio, deterministic: true)
  /// Reads served stale and revalidated (permissive), of all reads.
  package static let staleShare = Metric(.traffic, "stale_share", unit: .ratio, deterministic: true)
  /// Expired fields a read found, on average over every read.
  package static let expiredFields = Metric(.traffic, "expired_fields", unit: .count, deterministic: true)
  /// The JSON fetched because of expiry: TTL misses' refetches and stale reads' revalidations.
  package static let ttlFetchedBytes = Metric(.traffic, "ttl_fetched_bytes", unit: .bytes, deterministic: true)
  // Watched queries in a store with dates (ADR 0004; docs/ttl.md#watchers-under-ttl), per watched
  // query per simulated hour of the session's clock.
  /// Reads again, permissive, because a write changed a key the watcher depended on.
  package static let watcherRereadsPerHour = Metric(.traffic, "watcher_rereads_per_hour", unit: .count, deterministic: true)
  /// Fetches of the refresh timers (`refreshOnExpiry`): a timer's strict read that missed.
  package static let watcherRefetchesPerHour = Metric(.traffic, "watcher_refetches_per_hour", unit: .count, deterministic: true)
  /// What those fetches took from the network, in all.
  package static let watcherFetchedBytes = Metric(.traffic, "watcher_fetched_bytes", unit: .bytes, deterministic: true)
  /// Of the timers that fired, the share whose strict read missed and fetched; the others found
  /// their fields fresh, refreshed meanwhile by another fetch.
  package static let watcherTimerFetchShare = Metric(.traffic, "watcher_timer_fetch_share", unit: .ratio, deterministic: true)
  /// Other watchers that one timer fetch woke, mean.
  package static let wokenPerWatcherRefetch = Metric(.traffic, "woken_per_watcher_refetch", unit: .count, deterministic: true)

  // What dates cost (docs/ttl.md#what-dates-cost), on a store with dates.
  /// Reading one operation back with a clock (every selected field's date checked), after the
  /// writes: against `read/latency`, the same read of the same store without one.
  package static let ttlLatency = Metric(.ttl, "latency", unit: .ns, deterministic: false)
  package static let ttlInstructions = instructions(.ttl)
  /// Merging one response's records again, unchanged, a step later: every field's date moves.
  package static let refreshLatency = Metric(.refresh, "latency", unit: .ns, deterministic: false)
  /// The same, at the date already stored: nothing moves, as an unchanged merge without dates.
  package static let refreshSameDateLatency = Metric(.refresh, "same_date_latency", unit: .ns, deterministic: false)
  package static let refreshInstructions = instructions(.refresh)
  /// The instructions of the merge at the date already stored: what an unchanged refetch costs
  /// without dates, which ``refreshInstructions`` is judged against.
  package static let refreshSameDateInstructions = Metric(.refresh, "same_date_instructions", unit: .count, deterministic: true)

  // Garbage collection on the store the traffic left.
  package static let gcRecordsRemoved = Metric(.gc, "records_removed", unit: .count, deterministic: true)
  package static let gcBytesFreed = Metric(.gc, "bytes_freed", unit: .bytes, deterministic: true)
  package static let gcDanglingReferences = Metric(.gc, "dangling_references", unit: .count, deterministic: true)
  package static let gcLatency = Metric(.gc, "latency", unit: .ns, deterministic: false)

  // The database file after the traffic and garbage collection, vacuumed, then cleared and shrunk.
  package static let fileBytes = Metric(.disk, "file_bytes", unit: .bytes, deterministic: true)
  package static let freeBytes = Metric(.disk, "free_bytes", unit: .bytes, deterministic: true)
  package static let fileBytesAfterClear = Metric(.disk, "file_bytes_after_clear", unit: .bytes, deterministic: true)
  package static let freeBytesAfterClear = Metric(.disk, "free_bytes_after_clear", unit: .bytes, deterministic: true)
  package static let incrementalVacuumLatency = Metric(.disk, "incremental_vacuum_latency", unit: .ns, deterministic: false)
  package static let fileBytesAfterIncrementalVacuum = Metric(
    .disk, "file_bytes_after_incremental_vacuum", unit: .bytes, deterministic: true)
  package static let vacuumLatency = Metric(.disk, "vacuum_latency", unit: .ns, deterministic: false)
  package static let fileBytesAfterVacuum = Metric(.disk, "file_bytes_after_vacuum", unit: .bytes, deterministic: true)
  /// After `clear()`: shrinking the file, by incremental vacuum where it was made for it, else `VACUUM`.
  package static let clearVacuumLatency = Metric(.disk, "clear_vacuum_latency", unit: .ns, deterministic: false)
  package static let fileBytesAfterClearVacuum = Metric(.disk, "file_bytes_after_clear_vacuum", unit: .bytes, deterministic: true)

  // Reads on several threads while writes land (`concurrency`), rows under the variant
  // `readers=N`: the readers alone, then beside the writers (`_writing`), then alone on hot
  // records (`_hot`: every reader the same operations at once).
  /// Reads the readers completed per second of the run's wall clock, one sample per repetition.
  package static let readsPerSecond = Metric(.concurrency, "reads_per_second", unit: .perSecond, better: .higher, deterministic: false)
  package static let concurrentReadLatency = Metric(.concurrency, "read_latency", unit: .ns, deterministic: false)
  package static let readsPerSecondWriting = Metric(
    .concurrency, "reads_per_second_writing", unit: .perSecond, better: .higher, deterministic: false)
  package static let concurrentReadLatencyWriting = Metric(.concurrency, "read_latency_writing", unit: .ns, deterministic: false)
  package static let readsPerSecondHot = Metric(
    .concurrency, "reads_per_second_hot", unit: .perSecond, better: .higher, deterministic: false)
  package static let concurrentReadLatencyHot = Metric(.concurrency, "read_latency_hot", unit: .ns, deterministic: false)
  /// A merge by a writer while the readers read (normalized before the clock starts).
  package static let concurrentWriteLatency = Metric(.concurrency, "write_latency", unit: .ns, deterministic: false)
  /// Merges the writers landed per second while the readers read.
  package static let writesPerSecond = Metric(.concurrency, "writes_per_second", unit: .perSecond, better: .higher, deterministic: false)
  /// Time reads waited for the store's locks (or read connections), per read, one sample per run.
  package static let readLockWait = Metric(.concurrency, "read_lock_wait", unit: .ns, deterministic: false)
  package static let readLockWaitWriting = Metric(.concurrency, "read_lock_wait_writing", unit: .ns, deterministic: false)
  package static let readLockWaitHot = Metric(.concurrency, "read_lock_wait_hot", unit: .ns, deterministic: false)
  /// Time merges waited for the store's lock, per merge.
  package static let writeLockWait = Metric(.concurrency, "write_lock_wait", unit: .ns, deterministic: false)

  /// Read-backs of a bounded store that missed (its budget evicted something they needed), of
  /// the allocation pass's reads, one right after each write.
  package static let readBackMisses = Metric(.lookup, "read_back_misses", unit: .count, deterministic: true)

  // Footprint (docs/metrics.md): the store's own rows, then bytes per record and the payload.
  package static let bytesPerRecord = Metric(.footprint, "bytes_per_record", unit: .bytes, deterministic: true)
  package static let bytesPerRecordCheckpointed = Metric(.footprint, "bytes_per_record_checkpointed", unit: .bytes, deterministic: true)
  package static let dbBytesCheckpointed = Metric(.footprint, "db_bytes_checkpointed", unit: .bytes, deterministic: true)
  package static let payloadBytes = Metric(.footprint, "payload_bytes", unit: .bytes, deterministic: true)

  /// A footprint row a store names itself: `live_bytes`, `db_bytes`, `wal_bytes`, ...
  package static func footprint(_ name: String) -> Metric {
    Metric(.footprint, name, unit: .bytes, deterministic: true)
  }

  /// One step of `ab --paired` (a merge, a read or a lookup of one store × strategy), per operation.
  package static func pairedStep(_ phase: Phase) -> Metric {
    Metric(phase, "step", unit: .ns, deterministic: false)
  }

  /// The row that carries a store's timing against its limit store's (`"limits": true`,
  /// docs/metrics.md): `merge/latency_vs_limit`, the limit's p50 over the store's.
  package static func versusLimit(_ metric: Metric) -> Metric {
    Metric(metric.phase, metric.name + versusLimitSuffix, unit: .ratio, better: .higher, deterministic: false)
  }

  static let versusLimitSuffix = "_vs_limit"
}

extension MetricKey {
  /// Whether this row is of `metric` (its phase and name).
  package func names(_ metric: Metric) -> Bool {
    phase == metric.phase && self.metric == metric.name
  }

  /// Whether this row counts instructions (`run --instructions`), in any phase: `instructions`, or
  /// a scenario's `<scenario>_instructions` (``Metric/tier2Instructions(_:)``).
  package var isInstructions: Bool { names(.instructions(phase)) || metric.hasSuffix(Metric.instructionsSuffix) }

  /// Whether this row is a store's timing against its limit store's (``Metric/versusLimit(_:)``).
  package var isVersusLimit: Bool { metric.hasSuffix(Metric.versusLimitSuffix) }
}
