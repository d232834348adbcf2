/// Which batch of a lane an element lives in: its kind and, for springs
/// and decays, its method.
package enum ElementKind: Equatable, Sendable {
    case spring(SpringMethod)
    case decay(DecayMethod)
    case basic
    case keyframe
    case custom
}
