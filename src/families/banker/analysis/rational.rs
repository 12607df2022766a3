//! Exact fractions for expected values (`-7/250`), reduced, with an i128 numerator.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Div, Mul, Sub};

/// A reduced fraction with a positive denominator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rational {
    num: i128,
    den: i128,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

impl Rational {
    /// Zero.
    pub const ZERO: Rational = Rational { num: 0, den: 1 };
    /// One.
    pub const ONE: Rational = Rational { num: 1, den: 1 };

    /// `num / den`, reduced; a zero denominator gives zero.
    pub fn new(num: i128, den: i128) -> Rational {
        if den == 0 {
            return Rational::ZERO;
        }
        let g = gcd(num, den);
        let sign = if den < 0 { -1 } else { 1 };
        Rational {
            num: sign * num / g,
            den: sign * den / g,
        }
    }

    /// The numerator.
    pub fn numer(self) -> i128 {
        self.num
    }

    /// The denominator.
    pub fn denom(self) -> i128 {
        self.den
    }

    /// The nearest float.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl From<i128> for Rational {
    fn from(n: i128) -> Rational {
        Rational { num: n, den: 1 }
    }
}

impl Add for Rational {
    type Output = Rational;
    fn add(self, o: Rational) -> Rational {
        let g = gcd(self.den, o.den);
        Rational::new(
            self.num * (o.den / g) + o.num * (self.den / g),
            self.den / g * o.den,
        )
    }
}

impl Sub for Rational {
    type Output = Rational;
    fn sub(self, o: Rational) -> Rational {
        self + Rational {
            num: -o.num,
            den: o.den,
        }
    }
}

impl Mul for Rational {
    type Output = Rational;
    fn mul(self, o: Rational) -> Rational {
        let g1 = gcd(self.num, o.den);
        let g2 = gcd(o.num, self.den);
        Rational::new(
            (self.num / g1) * (o.num / g2),
            (self.den / g2) * (o.den / g1),
        )
    }
}

impl Div for Rational {
    type Output = Rational;
    // Division is multiplication by the reciprocal.
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn div(self, o: Rational) -> Rational {
        self * Rational::new(o.den, o.num)
    }
}

impl PartialOrd for Rational {
    fn partial_cmp(&self, o: &Rational) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Rational {
    fn cmp(&self, o: &Rational) -> Ordering {
        match (self.num.checked_mul(o.den), o.num.checked_mul(self.den)) {
            (Some(a), Some(b)) => a.cmp(&b),
            // Deep draws give denominators whose products overflow: compare by the continued
            // fractions instead, exactly.
            _ => compare_fractions(self.num, self.den, o.num, o.den),
        }
    }
}

/// `a / b` against `c / d` (`b`, `d` positive) without a product: the whole parts, then the
/// reciprocals of what is left, as Euclid's algorithm goes.
fn compare_fractions(a: i128, b: i128, c: i128, d: i128) -> Ordering {
    let (qa, ra) = (a.div_euclid(b), a.rem_euclid(b));
    let (qc, rc) = (c.div_euclid(d), c.rem_euclid(d));
    match qa.cmp(&qc) {
        Ordering::Equal => match (ra == 0, rc == 0) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            // ra/b < rc/d exactly when d/rc < b/ra.
            (false, false) => compare_fractions(d, rc, b, ra),
        },
        other => other,
    }
}

impl fmt::Display for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_reduces() {
        let a = Rational::new(1, 3);
        let b = Rational::new(1, 6);
        assert_eq!(a + b, Rational::new(1, 2));
        assert_eq!(a - b, Rational::new(1, 6));
        assert_eq!(a * b, Rational::new(1, 18));
        assert_eq!(a / b, Rational::from(2));
        assert_eq!(Rational::new(-14, -500).to_string(), "7/250");
        assert_eq!(Rational::new(7, -250).to_string(), "-7/250");
        assert!(Rational::new(-1, 3) < Rational::ZERO);
    }

    #[test]
    fn fractions_whose_cross_products_overflow_still_compare() {
        let big = 1i128 << 100;
        let a = Rational::new(big - 1, big);
        let b = Rational::new(big - 3, big - 1);
        assert_eq!(a.cmp(&b), Ordering::Greater);
        assert_eq!(b.cmp(&a), Ordering::Less);
        assert_eq!(a.cmp(&a), Ordering::Equal);
        let neg = Rational::new(-(big - 1), big);
        assert_eq!(neg.cmp(&b), Ordering::Less);
        assert_eq!(compare_fractions(7, 3, 9, 4), (7 * 4).cmp(&(9 * 3)));
        assert_eq!(compare_fractions(-7, 3, -9, 4), (-7 * 4).cmp(&(-9 * 3)));
    }
}
