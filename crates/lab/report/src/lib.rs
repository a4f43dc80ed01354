#![doc = include_str!("../README.md")]

mod atomic;
pub mod browser;
pub mod chart;
pub mod csv;
mod error;
pub mod format;
mod html;
mod meta;
pub mod palette;

pub use crate::{
    atomic::{
        REPORT_MARKER, ReportDir, SITE_MARKER, check_replaceable, check_site_root,
        create_site_root, write_atomic, write_atomic_with, written_by,
    },
    chart::{BarChart, Chart, ForestChart, ForestRow, LineChart, Series},
    error::ReportError,
    format::{fmt_delta_pct, fmt_int, fmt_ms, fmt_pct},
    html::{Cell, NavLink, Page, escape_html, figure_html, render_fragment, table_html},
    meta::{Meta, RUSTC_VERSION, format_utc, git_commit},
    palette::{RGBColor, colour, colour_hex, hex},
};
