//! Daily floors: the hours of the UTC day whose load jumps every day, and the floors that
//! carry them.

use super::DailyFloor;

/// Hours of the UTC day whose load jumps, every day: per resource and dimension, an hour
/// whose peak minute is more than twice the previous hour's, with the hour's peak on its
/// quietest day at least half its peak on its busiest (the jump recurs), and the hours after
/// it while its load stays above twice the hour before the jump. Target tracking follows a
/// load that grows over an hour; a jump arrives before its two alarm datapoints. Needs two
/// whole days. Returns (first hour, hour after the last, per resource and dimension the
/// block's peak units a second or 0 where it does not jump).
pub(super) fn daily_blocks(units: &[Vec<[f64; 2]>], duration_s: u64, start_unix_s: i64) -> Vec<(u32, u32, Vec<[f64; 2]>)> {
    if duration_s < 2 * 86_400 {
        return Vec::new();
    }
    let tod0 = (start_unix_s.rem_euclid(86_400) / 60) as usize;
    let nres = units.len();
    // Per (resource, dimension) and hour of day: the peak minute of each whole (day, hour).
    let mut cells: Vec<[Vec<Vec<f64>>; 2]> = (0..nres).map(|_| [vec![Vec::new(); 24], vec![Vec::new(); 24]]).collect();
    for (res, cell) in units.iter().zip(&mut cells) {
        let minutes = res.len();
        let mut h = tod0.div_ceil(60);
        while (h + 1) * 60 <= tod0 + minutes {
            for (d, by_hour) in cell.iter_mut().enumerate() {
                let peak = (h * 60 - tod0..(h + 1) * 60 - tod0).map(|m| res[m][d]).fold(0.0, f64::max);
                by_hour[h % 24].push(peak);
            }
            h += 1;
        }
    }
    let mut raised = vec![[[false; 24]; 2]; nres];
    let mut peak_of = vec![[[0.0f64; 24]; 2]; nres];
    for ri in 0..nres {
        for d in 0..2 {
            let hi: Vec<f64> = (0..24).map(|h| cells[ri][d][h].iter().copied().fold(0.0, f64::max)).collect();
            let lo: Vec<f64> = (0..24).map(|h| cells[ri][d][h].iter().copied().fold(f64::INFINITY, f64::min)).collect();
            let days: Vec<usize> = (0..24).map(|h| cells[ri][d][h].len()).collect();
            let mut before = None;
            for h in 0..24 {
                let prev = hi[(h + 23) % 24];
                let recurs = days[h] >= 2 && lo[h] >= 0.5 * hi[h];
                let jumps = recurs && hi[h] >= 1.0 && hi[h] > 2.0 * prev;
                let holds = before.is_some_and(|b: f64| recurs && hi[h] > 2.0 * b);
                if jumps && before.is_none() {
                    before = Some(prev);
                }
                if jumps || holds {
                    raised[ri][d][h] = true;
                    peak_of[ri][d][h] = hi[h];
                } else {
                    before = None;
                }
            }
        }
    }
    let any = |h: usize| raised.iter().any(|x| x[0][h] || x[1][h]);
    let mut blocks = Vec::new();
    let mut h = 0;
    while h < 24 {
        if !any(h) {
            h += 1;
            continue;
        }
        let from = h;
        while h < 24 && any(h) {
            h += 1;
        }
        let peaks = (0..nres)
            .map(|ri| {
                let p = |d: usize| (from..h).filter(|&x| raised[ri][d][x]).map(|x| peak_of[ri][d][x]).fold(0.0, f64::max);
                [p(0), p(1)]
            })
            .collect();
        blocks.push((from as u32, h as u32, peaks));
    }
    blocks
}

/// Per resource, [read, write]: the peak minute's demand, units a second, outside the hours
/// of `blocks`.
pub(super) fn peak_outside(units: &[Vec<[f64; 2]>], start_unix_s: i64, blocks: &[(u32, u32, Vec<[f64; 2]>)]) -> Vec<[f64; 2]> {
    let tod0 = (start_unix_s.rem_euclid(86_400) / 60) as usize;
    let inside = |m: usize| {
        let h = ((tod0 + m) % 1_440 / 60) as u32;
        blocks.iter().any(|b| (b.0..b.1).contains(&h))
    };
    peaks_in(units, |m| !inside(m))
}

/// Per resource: the peak [read, write] units a second of the minutes `keep` keeps.
pub(super) fn peaks_in(units: &[Vec<[f64; 2]>], keep: impl Fn(usize) -> bool) -> Vec<[f64; 2]> {
    units
        .iter()
        .map(|r| r.iter().enumerate().filter(|(m, _)| keep(*m)).fold([0.0f64; 2], |a, (_, x)| [a[0].max(x[0]), a[1].max(x[1])]))
        .collect()
}

/// The daily floors of `blocks` at `target` percent: each block's peak at the target.
pub(super) fn daily_floors(blocks: &[(u32, u32, Vec<[f64; 2]>)], target: f64) -> Vec<DailyFloor> {
    blocks
        .iter()
        .map(|(from, to, peaks)| DailyFloor {
            from_min: from * 60,
            to_min: to * 60,
            min: peaks.iter().map(|p| p.map(|x| if x > 0.0 { (x * 100.0 / target).ceil() as u64 } else { 0 })).collect(),
        })
        .collect()
}
