//! `datetime64` and `timedelta64` items as NumPy's `str` prints them: ISO 8601 dates and times
//! to the unit's precision (`2024-01-01T00:00:00.000`), `NaT`, and `5 seconds`.

use core::fmt;

use super::element::{DateTime64, TimeDelta64};
use crate::container::dtype::DateTimeUnit;

/// The year, month (1-12) and day (1-31) of `days` since 1970-01-01 in the proleptic Gregorian
/// calendar (Howard Hinnant's `civil_from_days`), for any `i64` count.
fn civil_from_days(days: i128) -> (i128, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i128::from(m <= 2);
    (y, m, d)
}

/// Units per second of the sub-day units, and the digits NumPy prints after the seconds.
fn per_second(unit: DateTimeUnit) -> Option<(i128, usize)> {
    Some(match unit {
        DateTimeUnit::Second => (1, 0),
        DateTimeUnit::Millisecond => (1_000, 3),
        DateTimeUnit::Microsecond => (1_000_000, 6),
        DateTimeUnit::Nanosecond => (1_000_000_000, 9),
        DateTimeUnit::Picosecond => (1_000_000_000_000, 12),
        DateTimeUnit::Femtosecond => (1_000_000_000_000_000, 15),
        DateTimeUnit::Attosecond => (1_000_000_000_000_000_000, 18),
        _ => return None,
    })
}

fn date(f: &mut fmt::Formatter<'_>, days: i128) -> fmt::Result {
    let (y, m, d) = civil_from_days(days);
    write!(f, "{y:04}-{m:02}-{d:02}")
}

/// `2024-01-01T00:00:00.000` to the unit's precision, `NaT`; the generic unit as its count.
impl fmt::Display for DateTime64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_nat() {
            return f.write_str("NaT");
        }
        let v = i128::from(self.value) * i128::from(self.count.max(1));
        match self.unit {
            DateTimeUnit::Generic => write!(f, "{v}"),
            DateTimeUnit::Year => write!(f, "{:04}", 1970 + v),
            DateTimeUnit::Month => write!(f, "{:04}-{:02}", 1970 + v.div_euclid(12), v.rem_euclid(12) + 1),
            DateTimeUnit::Week => date(f, v * 7),
            DateTimeUnit::Day => date(f, v),
            DateTimeUnit::Hour => {
                date(f, v.div_euclid(24))?;
                write!(f, "T{:02}", v.rem_euclid(24))
            }
            DateTimeUnit::Minute => {
                date(f, v.div_euclid(1440))?;
                let m = v.rem_euclid(1440);
                write!(f, "T{:02}:{:02}", m / 60, m % 60)
            }
            unit => {
                let (per, digits) = per_second(unit).unwrap_or((1, 0));
                let per_day = 86_400 * per;
                date(f, v.div_euclid(per_day))?;
                let t = v.rem_euclid(per_day);
                let s = t / per;
                write!(f, "T{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)?;
                if digits > 0 { write!(f, ".{:0digits$}", t % per) } else { Ok(()) }
            }
        }
    }
}

/// `5 seconds`, `NaT`, `7 generic time units`: NumPy's `str` of one `timedelta64`.
impl fmt::Display for TimeDelta64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_nat() {
            return f.write_str("NaT");
        }
        let v = i128::from(self.value) * i128::from(self.count.max(1));
        let name = match self.unit {
            DateTimeUnit::Generic => "generic time units",
            DateTimeUnit::Year => "years",
            DateTimeUnit::Month => "months",
            DateTimeUnit::Week => "weeks",
            DateTimeUnit::Day => "days",
            DateTimeUnit::Hour => "hours",
            DateTimeUnit::Minute => "minutes",
            DateTimeUnit::Second => "seconds",
            DateTimeUnit::Millisecond => "milliseconds",
            DateTimeUnit::Microsecond => "microseconds",
            DateTimeUnit::Nanosecond => "nanoseconds",
            DateTimeUnit::Picosecond => "picoseconds",
            DateTimeUnit::Femtosecond => "femtoseconds",
            DateTimeUnit::Attosecond => "attoseconds",
        };
        write!(f, "{v} {name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn dt(value: i64, unit: DateTimeUnit, count: u32) -> alloc::string::String {
        DateTime64 { value, unit, count }.to_string()
    }

    /// The strings NumPy 2 prints (`str(np.array([...], 'M8[u]')[i])`).
    #[test]
    fn datetimes_print_as_numpy_prints_them() {
        use DateTimeUnit as U;
        let nat = DateTime64::NAT;
        assert_eq!(dt(54, U::Year, 1), "2024");
        assert_eq!(dt(-2000, U::Year, 1), "-030");
        assert_eq!(dt(100_000, U::Year, 1), "101970");
        assert_eq!(dt(54, U::Month, 1), "1974-07");
        assert_eq!(dt(-1, U::Month, 1), "1969-12");
        assert_eq!(dt(-2000, U::Month, 1), "1803-05");
        assert_eq!(dt(1_234_567, U::Week, 1), "25630-11-28");
        assert_eq!(dt(-1, U::Week, 1), "1969-12-25");
        assert_eq!(dt(1_234_567, U::Day, 1), "5350-02-17");
        assert_eq!(dt(-1_000_000, U::Day, 1), "-768-02-04");
        assert_eq!(dt(1_234_567, U::Hour, 1), "2110-11-03T07");
        assert_eq!(dt(-1, U::Hour, 1), "1969-12-31T23");
        assert_eq!(dt(1_234_567, U::Minute, 1), "1972-05-07T08:07");
        assert_eq!(dt(1_234_567, U::Second, 1), "1970-01-15T06:56:07");
        assert_eq!(dt(-1, U::Second, 1), "1969-12-31T23:59:59");
        assert_eq!(dt(1_234_567, U::Millisecond, 1), "1970-01-01T00:20:34.567");
        assert_eq!(dt(-1, U::Microsecond, 1), "1969-12-31T23:59:59.999999");
        assert_eq!(dt(1_234_567, U::Nanosecond, 1), "1970-01-01T00:00:00.001234567");
        assert_eq!(dt(-1, U::Attosecond, 1), "1969-12-31T23:59:59.999999999999999999");
        assert_eq!(dt(1_234_567, U::Second, 5), "1970-03-13T10:40:35");
        assert_eq!(dt(1_234_567, U::Day, 3), "12110-05-23");
        assert_eq!(dt(100_000_000_000_000_000, U::Second, 1), "3168875820-09-06T09:46:40");
        assert_eq!(dt(nat, U::Second, 1), "NaT");
        assert_eq!(dt(i64::MAX, U::Attosecond, 1), "1970-01-01T00:00:09.223372036854775807");
        let td = |value, unit, count| TimeDelta64 { value, unit, count }.to_string();
        assert_eq!(td(5, U::Second, 1), "5 seconds");
        assert_eq!(td(5, U::Second, 5), "25 seconds");
        assert_eq!(td(7, U::Generic, 1), "7 generic time units");
        assert_eq!(td(TimeDelta64::NAT, U::Day, 1), "NaT");
    }
}
