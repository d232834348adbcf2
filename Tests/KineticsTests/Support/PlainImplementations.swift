// Second, plainly written implementations of the Pop-compatible algorithms,
// transcribed from ../shared/docs/ALGORITHMS.md without sharing any code with
// the library. The library's `pop` and `webkit` modes must agree with these
// bit for bit.

import Foundation
import KineticsReference

/// Pop's spring loop on one scalar, written out stage by stage.
struct PlainPopSpring {
    let k, b, m: Double
    var to, value, velocity: Double
    var accumulated = 0.0

    static let h = Double(Float(0.001))

    mutating func frame(_ dt: Double) {
        if dt > 30 { return }
        accumulated += dt
        // Solver coordinates: displacement to the target, negated velocity.
        var state = (p: to - value, v: velocity * -1)
        var previous = state
        while accumulated >= Self.h {
            previous = state
            state = step(state)
            accumulated -= Self.h
        }
        let alpha = accumulated / Self.h
        state = (
            state.p * alpha + previous.p * (1 - alpha),
            state.v * alpha + previous.v * (1 - alpha)
        )
        value = to - state.p
        velocity = state.v * -1
    }

    private func acceleration(_ p: Double, _ v: Double) -> Double {
        p * (-k / m) - v * (b / m)
    }

    private func step(_ s: (p: Double, v: Double)) -> (p: Double, v: Double) {
        let h = Self.h
        let a = (dp: s.v, dv: acceleration(s.p, s.v))
        let sb = (p: s.p + a.dp * (h * 0.5), v: s.v + a.dv * (h * 0.5))
        let bb = (dp: sb.v, dv: acceleration(sb.p, sb.v))
        let sc = (p: s.p + bb.dp * (h * 0.5), v: s.v + bb.dv * (h * 0.5))
        let cc = (dp: sc.v, dv: acceleration(sc.p, sc.v))
        let sd = (p: s.p + cc.dp * h, v: s.v + cc.dv * h)
        let dd = (dp: sd.v, dv: acceleration(sd.p, sd.v))
        let dpdt = (a.dp + (bb.dp + cc.dp) * 2.0 + dd.dp) * (1.0 / 6.0)
        let dvdt = (a.dv + (bb.dv + cc.dv) * 2.0 + dd.dv) * (1.0 / 6.0)
        return (s.p + dpdt * h, s.v + dvdt * h)
    }
}

/// Pop's `decay_position` on one scalar, with C's float/double promotions
/// written out.
struct PlainPopDecay {
    let deceleration: Double
    var x: Double
    var v: Double

    mutating func frame(_ dt: Double) {
        let ms = dt * 1000
        let kv: Float = powf(Float(deceleration), Float(ms))
        let oneMinusKv: Float = Float(1) - kv
        let kx: Float = Float(deceleration * Double(oneMinusKv) / (1 - deceleration))
        let v0: Float = Float(v / 1000.0)
        let product: Float = v0 * kv
        v = Double(product) * 1000.0
        let moved: Float = v0 * kx
        x = x + Double(moved)
    }
}

/// WebKit's UnitBezier solver, transcribed, without any iteration cap (only
/// called on inputs where it terminates). Its polynomial is the GSL
/// reference's (WebKit's coefficients), not the library's.
struct PlainWebKitBezier {
    let curve: ReferenceBezier

    init(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double) {
        curve = ReferenceBezier(x1: p1x, y1: p1y, x2: p2x, y2: p2y)
    }

    func sampleX(_ t: Double) -> Double { curve.x(at: t) }
    func sampleY(_ t: Double) -> Double { curve.y(at: t) }
    func sampleDX(_ t: Double) -> Double { (3.0 * curve.ax * t + 2.0 * curve.bx) * t + curve.cx }

    func solve(_ x: Double, _ epsilon: Double) -> Double {
        var t2 = x
        var i = 0
        while i < 8 {
            let x2 = sampleX(t2) - x
            if fabs(x2) < epsilon { return sampleY(t2) }
            let d2 = sampleDX(t2)
            if fabs(d2) < 1e-6 { break }
            t2 = t2 - x2 / d2
            i += 1
        }
        var t0 = 0.0
        var t1 = 1.0
        t2 = x
        if t2 < t0 { return sampleY(t0) }
        if t2 > t1 { return sampleY(t1) }
        while t0 < t1 {
            let x2 = sampleX(t2)
            if fabs(x2 - x) < epsilon { return sampleY(t2) }
            if x > x2 { t0 = t2 } else { t1 = t2 }
            t2 = (t1 - t0) * 0.5 + t0
        }
        return sampleY(t2)
    }
}
