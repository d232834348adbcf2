import Foundation

/// What a trace's own numbers say about how exactly they were recorded: the
/// step of their printed decimals, whether they are single-precision floats,
/// and so the deviation a replay of the engine's own scheme would still
/// show. It is estimated from the trace alone, never from a candidate's
/// residual, so that a misfit cannot raise the bar it is measured against.
public struct TraceNoise: Sendable, Equatable {
    /// The finest step between printed values: `1e-6` for values printed to
    /// six decimals, about 1e-17 for full double precision.
    public var quantum: Double
    /// Whether every value is a single-precision float printed with more
    /// digits than a float holds (the engine computed in float32).
    public var singlePrecision: Bool
    /// The deviation a faithful replay may still show, absolute: the larger
    /// of the printing's rounding (`quantum/√12`) and the arithmetic's
    /// (`4·ε·scale·√n` over `n` samples, ε = 2⁻²⁴ for float32, 2⁻⁵³ for
    /// double: rounding that accumulates like a random walk).
    public var deviation: Double
    /// What set the deviation, in words.
    public var source: String

    /// How many deviations a candidate's RMS residual may be and still
    /// explain the trace.
    public static let explainingFactor = 10.0

    /// The largest RMS residual that is consistent with this noise.
    public var explainingBound: Double { Self.explainingFactor * deviation }

    /// The noise of `values` sampled at `times` (seconds, or x for a
    /// curve), whose magnitude is about `scale`. Times printed coarsely move
    /// each value by up to its speed times half their step, so their
    /// printing counts too: `timeStep` when the file said it (times read in
    /// another unit, ``MotionTrace/timeStep``), else the times' own digits.
    public init(values: [Double], times: [Double], scale: Double, timeStep: Double? = nil) {
        var finest = Double.infinity
        var floatExact = true
        var longFloats = 0
        for value in values where value != 0 && value.isFinite {
            let decimals = DecimalForm(value)
            finest = min(finest, decimals.lastDigit)
            if Double(Float(value)) != value {
                floatExact = false
            } else if decimals.significantDigits > 8 {
                longFloats += 1
            }
        }
        if !finest.isFinite { finest = scale * 0x1p-53 }
        quantum = finest
        singlePrecision = floatExact && longFloats >= 3
        let epsilon = singlePrecision ? 0x1p-24 : 0x1p-53
        let arithmetic = 4 * epsilon * max(scale, 1e-300) * Double(max(values.count, 1)).squareRoot()
        let printing = finest / 12.0.squareRoot()
        // The times' printing, through the fastest change between samples.
        var timeStep = timeStep ?? .infinity
        if timeStep == .infinity {
            for time in times where time != 0 && time.isFinite {
                timeStep = min(timeStep, DecimalForm(time).lastDigit)
            }
        }
        var speed = 0.0
        for index in values.indices.dropFirst() where index < times.count && times[index] > times[index - 1] {
            speed = max(speed, abs(values[index] - values[index - 1]) / (times[index] - times[index - 1]))
        }
        let timing = timeStep.isFinite ? timeStep / 12.0.squareRoot() * speed : 0
        if timing > max(printing, arithmetic) {
            deviation = timing
            source = "times printed to a step of " + String(format: "%.0e", timeStep) + ", at the trace's fastest speed"
        } else if printing > arithmetic {
            deviation = printing
            source = "values printed to a step of " + String(format: "%.0e", finest)
        } else {
            deviation = arithmetic
            source = singlePrecision ? "single-precision (float32) values" : "double-precision values"
        }
    }

}

/// The shortest decimal form of a double (as Swift prints it): how many
/// significant digits it has and the place value of its last digit.
struct DecimalForm {
    let significantDigits: Int
    let lastDigit: Double

    init(_ value: Double) {
        let text = "\(abs(value))"
        let parts = text.split(separator: "e")
        let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0]
        var integer = Substring(mantissa)
        var fraction = Substring("")
        if let point = mantissa.firstIndex(of: ".") {
            integer = mantissa[..<point]
            fraction = mantissa[mantissa.index(after: point)...]
        }
        // "100.0" has no decimals; trailing zeros of the fraction say nothing.
        while fraction.last == "0" { fraction = fraction.dropLast() }
        var digits = Array((integer + fraction).drop { $0 == "0" })
        var place = exponent - fraction.count
        if fraction.isEmpty {
            // An integer: its trailing zeros are places, not digits.
            while digits.last == "0" {
                digits.removeLast()
                place += 1
            }
        }
        significantDigits = max(digits.count, 1)
        var last = 1.0
        for _ in 0 ..< abs(place) { last *= 10 }
        lastDigit = place < 0 ? 1 / last : last
    }
}
