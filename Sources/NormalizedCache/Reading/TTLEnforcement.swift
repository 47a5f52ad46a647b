/// How a read with a clock treats an expired field (Apollo iOS 3.0's `TTLEnforcement`, ADR 0003):
/// strict makes the read a miss; permissive returns the data, marked stale. A field that is absent
/// is a miss either way.
public enum TTLEnforcement: String, Sendable, Hashable, CaseIterable {
  case strict, permissive
}
