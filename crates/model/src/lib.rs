pub mod rel;
