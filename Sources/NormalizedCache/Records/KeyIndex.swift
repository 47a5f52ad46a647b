/// The record set's index: open addressing over the records' positions, each slot keeping its
/// key's hash (``HashedKey``, seeded per process), so that a lookup hashes the key once, compares
/// hashes first, and growing never hashes again.
struct KeyIndex {
  private struct HashedPosition {
    var hash: UInt64 = 0
    /// -1 for an empty slot.
    var position: Int32 = -1
  }

  private var slots: [HashedPosition] = []
  private var count = 0

  /// Where a key is, or would go: its slot and hash, and its position when the index has it.
  struct Place {
    let slot: Int
    let hash: UInt64
    let position: Int?
  }

  init() {}

  /// An index that takes `capacity` keys without growing.
  init(capacity: Int) {
    var size = 16
    while size < capacity * 2 { size *= 2 }
    slots = Array(repeating: HashedPosition(), count: size)
  }

  /// Where `key` is or would go.
  @inline(__always)
  mutating func find(_ key: CacheKey, in records: [Record]) -> Place {
    find(key) { records[$0].key }
  }

  /// Where `key` is or would go, `keyAt` giving the key at a position the index holds.
  @inline(__always)
  mutating func find(_ key: CacheKey, keyAt: (Int) -> CacheKey) -> Place {
    if slots.isEmpty { slots = Array(repeating: HashedPosition(), count: 16) }
    let hash = HashedKey.hash(key, seed: RecordTable.seed)
    return slots.withUnsafeBufferPointer { slots in
      let mask = slots.count - 1
      var slot = Int(truncatingIfNeeded: hash) & mask
      while true {
        let entry = slots[slot]
        if entry.position < 0 { return Place(slot: slot, hash: hash, position: nil) }
        if entry.hash == hash, keyAt(Int(entry.position)) == key {
          return Place(slot: slot, hash: hash, position: Int(entry.position))
        }
        slot = (slot + 1) & mask
      }
    }
  }

  /// The position of `key`, if the index has it.
  func position(of key: CacheKey, in records: [Record]) -> Int? {
    guard !slots.isEmpty else { return nil }
    let hash = HashedKey.hash(key, seed: RecordTable.seed)
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot].position >= 0 {
      if slots[slot].hash == hash, records[Int(slots[slot].position)].key == key { return Int(slots[slot].position) }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// Puts `position` where ``find(_:in:)`` found its key would go (nothing inserted since).
  @inline(__always)
  mutating func insert(_ position: Int, at place: Place) {
    slots[place.slot] = HashedPosition(hash: place.hash, position: Int32(position))
    count += 1
    if count * 2 > slots.count { grow() }
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: HashedPosition(), count: old.count * 2)
    let mask = slots.count - 1
    for entry in old where entry.position >= 0 {
      var slot = Int(truncatingIfNeeded: entry.hash) & mask
      while slots[slot].position >= 0 { slot = (slot + 1) & mask }
      slots[slot] = entry
    }
  }
}
