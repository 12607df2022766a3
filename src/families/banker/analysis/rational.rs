//! Exact fractions for expected values (`-7/250`), reduced. Held as two `i128` while they fit
//! (every analysis of a bundled game) and as num-rational's big-integer fractions once a sum or
//! product would overflow (deep draws from a large shoe): never wrong, and fast where small.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, Neg, Sub, SubAssign};

/// A reduced fraction with a positive denominator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rational(Repr);

/// One form for each value (so that the derived equality and hash hold): `Small` whenever the
/// numerator and denominator fit an `i128` (the numerator above `i128::MIN`, so that it can be
/// negated), `Big` only otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Repr {
    Small { num: i128, den: i128 },
    Big(Box<BigRational>),
}

/// The greatest common divisor (1 for two zeros); `None` where it is 2^127 (of `i128::MIN` and
/// zero or itself), which an `i128` cannot hold.
fn gcd(a: i128, b: i128) -> Option<i128> {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i128::try_from(a.max(1)).ok()
}

impl Rational {
    /// Zero.
    pub const ZERO: Rational = Rational(Repr::Small { num: 0, den: 1 });
    /// One.
    pub const ONE: Rational = Rational(Repr::Small { num: 1, den: 1 });

    /// `num / den`, reduced; a zero denominator gives zero.
    pub fn new(num: i128, den: i128) -> Rational {
        if den == 0 {
            return Rational::ZERO;
        }
        Rational::small(num, den)
            .unwrap_or_else(|| Rational::from_big(BigRational::new(num.into(), den.into())))
    }

    /// `num / den` reduced with `i128` arithmetic (`den` not zero), or `None` where that
    /// overflows.
    fn small(num: i128, den: i128) -> Option<Rational> {
        let g = gcd(num, den)?;
        let (mut num, mut den) = (num.checked_div(g)?, den.checked_div(g)?);
        if den < 0 {
            (num, den) = (num.checked_neg()?, den.checked_neg()?);
        }
        (num != i128::MIN).then_some(Rational(Repr::Small { num, den }))
    }

    /// A big fraction in its one form: small where it fits.
    fn from_big(big: BigRational) -> Rational {
        match (big.numer().to_i128(), big.denom().to_i128()) {
            (Some(num), Some(den)) if num != i128::MIN => Rational(Repr::Small { num, den }),
            _ => Rational(Repr::Big(Box::new(big))),
        }
    }

    /// This fraction as a big one.
    fn big(&self) -> BigRational {
        match &self.0 {
            Repr::Small { num, den } => BigRational::new_raw(BigInt::from(*num), (*den).into()),
            Repr::Big(b) => (**b).clone(),
        }
    }

    /// Above zero.
    pub fn is_positive(&self) -> bool {
        match &self.0 {
            Repr::Small { num, .. } => *num > 0,
            Repr::Big(b) => b.is_positive(),
        }
    }

    /// The nearest float.
    pub fn to_f64(&self) -> f64 {
        match &self.0 {
            Repr::Small { num, den } => *num as f64 / *den as f64,
            Repr::Big(b) => b.to_f64().unwrap_or(f64::NAN),
        }
    }

    /// The sum in `i128`, or `None` where it overflows.
    fn add_small(&self, o: &Rational) -> Option<Rational> {
        let (Repr::Small { num: a, den: b }, Repr::Small { num: c, den: d }) = (&self.0, &o.0)
        else {
            return None;
        };
        let g = gcd(*b, *d)?;
        let num = a.checked_mul(d / g)?.checked_add(c.checked_mul(b / g)?)?;
        Rational::small(num, (b / g).checked_mul(*d)?)
    }

    /// The product in `i128`, or `None` where it overflows.
    fn mul_small(&self, o: &Rational) -> Option<Rational> {
        let (Repr::Small { num: a, den: b }, Repr::Small { num: c, den: d }) = (&self.0, &o.0)
        else {
            return None;
        };
        let (g1, g2) = (gcd(*a, *d)?, gcd(*c, *b)?);
        Rational::small((a / g1).checked_mul(c / g2)?, (b / g2).checked_mul(d / g1)?)
    }

    /// One over this fraction; zero for zero.
    fn recip(&self) -> Rational {
        match &self.0 {
            Repr::Small { num: 0, .. } => Rational::ZERO,
            Repr::Small { num, den } => Rational::new(*den, *num),
            Repr::Big(b) if b.is_zero() => Rational::ZERO,
            Repr::Big(b) => Rational::from_big(b.recip()),
        }
    }
}

impl From<i128> for Rational {
    fn from(n: i128) -> Rational {
        Rational::new(n, 1)
    }
}

impl Add<&Rational> for &Rational {
    type Output = Rational;
    fn add(self, o: &Rational) -> Rational {
        self.add_small(o)
            .unwrap_or_else(|| Rational::from_big(self.big() + o.big()))
    }
}

impl Mul<&Rational> for &Rational {
    type Output = Rational;
    fn mul(self, o: &Rational) -> Rational {
        self.mul_small(o)
            .unwrap_or_else(|| Rational::from_big(self.big() * o.big()))
    }
}

impl Neg for &Rational {
    type Output = Rational;
    fn neg(self) -> Rational {
        match &self.0 {
            // The small form's numerator is above `i128::MIN`.
            Repr::Small { num, den } => Rational(Repr::Small {
                num: -num,
                den: *den,
            }),
            Repr::Big(b) => Rational::from_big(-(**b).clone()),
        }
    }
}

impl Sub<&Rational> for &Rational {
    type Output = Rational;
    fn sub(self, o: &Rational) -> Rational {
        self + &-o
    }
}

impl Div<&Rational> for &Rational {
    type Output = Rational;
    // Division is multiplication by the reciprocal (dividing by zero gives zero).
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn div(self, o: &Rational) -> Rational {
        self * &o.recip()
    }
}

/// The operators on owned fractions and mixed ones, by the borrowed ones above.
macro_rules! owned_ops {
    ($($trait:ident $method:ident),*) => {$(
        impl $trait for Rational {
            type Output = Rational;
            fn $method(self, o: Rational) -> Rational {
                (&self).$method(&o)
            }
        }
        impl $trait<&Rational> for Rational {
            type Output = Rational;
            fn $method(self, o: &Rational) -> Rational {
                (&self).$method(o)
            }
        }
        impl $trait<Rational> for &Rational {
            type Output = Rational;
            fn $method(self, o: Rational) -> Rational {
                self.$method(&o)
            }
        }
    )*};
}
owned_ops!(Add add, Sub sub, Mul mul, Div div);

/// `a += b` and alike, by the operators above.
macro_rules! assign_ops {
    ($($trait:ident $method:ident $op:ident),*) => {$(
        impl $trait<&Rational> for Rational {
            fn $method(&mut self, o: &Rational) {
                *self = (&*self).$op(o);
            }
        }
        impl $trait for Rational {
            fn $method(&mut self, o: Rational) {
                *self = (&*self).$op(&o);
            }
        }
    )*};
}
assign_ops!(AddAssign add_assign add, SubAssign sub_assign sub, DivAssign div_assign div);

impl Neg for Rational {
    type Output = Rational;
    fn neg(self) -> Rational {
        -&self
    }
}

impl PartialOrd for Rational {
    fn partial_cmp(&self, o: &Rational) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Rational {
    fn cmp(&self, o: &Rational) -> Ordering {
        if let (Repr::Small { num: a, den: b }, Repr::Small { num: c, den: d }) = (&self.0, &o.0)
            && let (Some(x), Some(y)) = (a.checked_mul(*d), c.checked_mul(*b))
        {
            return x.cmp(&y);
        }
        self.big().cmp(&o.big())
    }
}

impl fmt::Display for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small { num, den: 1 } => write!(f, "{num}"),
            Repr::Small { num, den } => write!(f, "{num}/{den}"),
            Repr::Big(b) => write!(f, "{b}"),
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
        assert_eq!(&a + &b, Rational::new(1, 2));
        assert_eq!(&a - &b, Rational::new(1, 6));
        assert_eq!(&a * &b, Rational::new(1, 18));
        assert_eq!(&a / &b, Rational::from(2));
        assert_eq!(Rational::new(-14, -500).to_string(), "7/250");
        assert_eq!(Rational::new(7, -250).to_string(), "-7/250");
        assert!(Rational::new(-1, 3) < Rational::ZERO);
        assert_eq!(&a / &Rational::ZERO, Rational::ZERO);
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
    }

    /// Sums whose denominators multiply past `i128` were wrong (wrapped) in a release build:
    /// they now go on in big integers, exactly, and come back to the small form when they can.
    #[test]
    fn sums_past_i128_stay_exact() {
        // Denominators of two large coprime primes: their sum's denominator is their product,
        // past 2^127.
        let p = (1i128 << 89) - 1;
        let q = (1i128 << 61) - 1;
        let a = Rational::new(1, p);
        let b = Rational::new(1, q);
        let sum = &a + &b;
        assert!(matches!(sum.0, Repr::Big(_)));
        let expected = BigRational::new((p + q).into(), BigInt::from(p) * BigInt::from(q));
        assert_eq!(sum.big(), expected);
        assert_eq!(sum.to_string(), expected.to_string());
        // Taking b away again leaves 1/p, in the small form.
        let back = &sum - &b;
        assert_eq!(back, a);
        assert!(matches!(back.0, Repr::Small { .. }));
        assert!(sum > a && sum.is_positive());
        assert!((sum.to_f64() - (1.0 / p as f64 + 1.0 / q as f64)).abs() < 1e-30);
        // Products past i128 too, and division by them.
        let prod = &a * &b;
        assert!(matches!(prod.0, Repr::Big(_)));
        assert_eq!(&prod / &b, a);
        assert_eq!(-&(-&prod), prod);
        // The extreme numerator cannot be held small (it could not be negated).
        let min = Rational::new(i128::MIN, 1);
        assert!(matches!(min.0, Repr::Big(_)));
        assert_eq!(
            (-&min).to_string(),
            BigInt::from(i128::MIN).abs().to_string()
        );
    }
}
