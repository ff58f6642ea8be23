use vkherd_litmus::parse_litmus;
#[test]
fn scratch() {
    let all = std::fs::read_to_string("/tmp/scratch/cases.txt").unwrap();
    for case in all.split("\n=====\n") {
        match parse_litmus(case) {
            Ok(t) => println!(
                "OK {} code={:?} cond={:?}",
                t.name,
                t.code.iter().map(|c| c.len()).collect::<Vec<_>>(),
                t.condition.map(|c| c.text)
            ),
            Err(e) => println!("ERR {} (off {} len {})", e, e.span.offset, e.span.len),
        }
    }
}
