//! `replab policies`: engines' draw policies as presets (`replab_correctness::policies`).

experiment_command! {
    /// Engines' draw policies as presets: scripted cases and their effect on search.
    replab_correctness::policies::Policies with quick {
        repetition_depth: Option<u32> ["N"],
        wac_depth: Option<u32> ["N"],
        wac_records: Option<usize> ["N"],
        repeats: Option<usize> ["K"],
        threads: Option<usize> ["T"],
    }
}
