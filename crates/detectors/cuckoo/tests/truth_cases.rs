//! The probes of `linear+cuckoo` agree with truth on every scripted case. (The kit checks probe answers only: `cuckoo` alone answers upcoming cycles, which the registry's tests check.)

use replab_cuckoo::{LinearCuckoo, UpcomingRule};

#[test]
fn linear_cuckoo_probes_match_truth_on_the_scripted_cases() {
    for rule in UpcomingRule::ALL {
        replab_truth::kit::check_all(&mut LinearCuckoo::with_rule(rule));
    }
}
