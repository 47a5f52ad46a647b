/// The dates the workbench writes into a store with dates (docs/ttl.md#the-workbenchs-clock):
/// every write of the write and read phases at ``startAt``, step `s` of the traffic (and refetch
/// `s` of the watchers) at `startAt + s × secondsPerStep`.
struct WriteClock: Sendable, Hashable {
  let startAt: Int
  let secondsPerStep: Int

  /// The time of step `step`, in seconds.
  func time(atStep step: Int) -> Int { startAt + step * secondsPerStep }
}
