import Foundation
import PodiumWire

extension LeagueRequest {
    /// The league this asks for, created at `now`, or every problem with the request.
    public func validated(now: Date) -> Result<League, ValidationFailure> {
        var errors: [FieldError] = []
        let id = DefinitionFields.id(id, errors: &errors)
        let name = DefinitionFields.shownName(name, field: "name", maxLength: Self.maximumNameLength, errors: &errors)
        let scope = DefinitionFields.scope(scope, errors: &errors)
        let zone = DefinitionFields.zone(timeZone, errors: &errors)
        DefinitionFields.sumRanking(metric: metric, tieBreak: tieBreak, errors: &errors)
        let size = cohortSize ?? League.defaultCohortSize
        if !Self.cohortSizes.contains(size) {
            errors.append(FieldError(field: "cohort_size", message: "must be \(Self.cohortSizes.lowerBound)-\(Self.cohortSizes.upperBound)"))
        }
        // Moves are checked against the cohort size, or against the largest when the size itself is wrong.
        let bound = Self.cohortSizes.contains(size) ? size : Self.cohortSizes.upperBound
        for (field, value) in [("up", up), ("down", down)] where value.map({ !Self.fits($0, bound) }) ?? false {
            errors.append(FieldError(field: field, message: "must be 0-\(bound), the cohort size"))
        }
        let tiers = validatedTiers(cohortSize: bound, errors: &errors)
        guard errors.isEmpty, let scope, let zone else { return .failure(ValidationFailure(errors: errors)) }
        return .success(League(
            id: id, name: name, scope: scope, timeZone: zone, tiers: tiers, cohortSize: size, metric: metric ?? .points,
            tieBreak: tieBreak ?? .shared, medals: medals ?? true, createdAt: now))
    }

    /// Whether a count of players to move is 0...`bound` (compared, never made into a range: `bound` is checked first).
    private static func fits(_ value: Int, _ bound: Int) -> Bool {
        value >= 0 && value <= bound
    }

    /// The tiers asked for, with the league's moves where a tier gives none; problems are added to `errors`.
    private func validatedTiers(cohortSize: Int, errors: inout [FieldError]) -> [LeagueTier] {
        guard let tiers, (1...Self.maximumTiers).contains(tiers.count) else {
            errors.append(FieldError(field: "tiers", message: "must list 1-\(Self.maximumTiers) tiers, lowest first"))
            return []
        }
        var result: [LeagueTier] = []
        var names = Set<String>()
        for (index, tier) in tiers.enumerated() {
            let field = "tiers[\(index)]"
            let name = tier.name ?? ""
            if !NameRules.isValidScopeName(name) {
                errors.append(FieldError(field: "\(field).name", message: "must be 1-\(NameRules.maximumScopeNameLength) of a-z 0-9 . _ -"))
            } else if !names.insert(name).inserted {
                errors.append(FieldError(field: "\(field).name", message: "names another tier already"))
            }
            let title = DefinitionFields.shownName(tier.title ?? name, field: "\(field).title", maxLength: Self.maximumNameLength, errors: &errors)
            let top = index == tiers.count - 1
            let bottom = index == 0
            if top, let up = tier.up, up != 0 { errors.append(FieldError(field: "\(field).up", message: "must be 0: no tier is above the top one")) }
            if bottom, let down = tier.down, down != 0 {
                errors.append(FieldError(field: "\(field).down", message: "must be 0: no tier is below the bottom one"))
            }
            let up = top ? 0 : tier.up ?? self.up ?? League.defaultUp
            let down = bottom ? 0 : tier.down ?? self.down ?? League.defaultDown
            // A value the tier took from the league was checked there; one the top or bottom may not have, just above.
            for (part, value) in [("up", top ? nil : tier.up), ("down", bottom ? nil : tier.down)]
            where value.map({ !Self.fits($0, cohortSize) }) ?? false {
                errors.append(FieldError(field: "\(field).\(part)", message: "must be 0-\(cohortSize), the cohort size"))
            }
            // Summed only when both fit, so no sum can overflow; a default (7 up, 5 down) that does not fit is reported
            // here, as no field of the request holds it.
            if Self.fits(up, cohortSize) && Self.fits(down, cohortSize) {
                if up + down > cohortSize {
                    errors.append(FieldError(field: field, message: "moves \(up + down) players of a cohort of \(cohortSize): up plus down is at most the cohort size"))
                }
            } else if (!Self.fits(up, cohortSize) && tier.up == nil && self.up == nil) || (!Self.fits(down, cohortSize) && tier.down == nil && self.down == nil) {
                errors.append(FieldError(field: field, message: "moves \(up) up and \(down) down by default: more than a cohort of \(cohortSize) holds; set up and down"))
            }
            result.append(LeagueTier(name: name, title: title, up: up, down: down))
        }
        return result
    }
}
