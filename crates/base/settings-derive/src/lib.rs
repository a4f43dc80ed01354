#![doc = include_str!("../README.md")]

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as Tokens};
use quote::quote;
use syn::{Attribute, Data, DeriveInput, Expr, Field, Fields, Ident, parse_macro_input};

/// Derives `replab_settings::Settings` and the typed handles of a configuration's options
/// (see the crate's README).
#[proc_macro_derive(Settings, attributes(setting))]
pub fn derive_settings(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// What one field declares.
enum Declared {
    /// An option, with its range and its shown default if it has them.
    Option {
        /// `#[setting(range = LO..=HI)]`.
        range: Option<Box<Expr>>,
        /// `#[setting(shown = EXPR)]`, or the field's `Default` value through `Display` for
        /// `#[setting(shown_by_display)]`.
        shown: Option<Box<Expr>>,
        /// `#[setting(required)]`: the command line must give it.
        required: bool,
    },
    /// A flattened group of settings (`#[command(flatten)]`).
    Flatten,
    /// Not an option (`#[arg(skip)]`).
    Skip,
}

/// The handles and the `Settings` implementation of `input`.
fn expand(input: &DeriveInput) -> syn::Result<Tokens> {
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            input,
            "Settings is derived for structs",
        ));
    };
    let Fields::Named(fields) = &data.fields else {
        return Err(syn::Error::new_spanned(
            input,
            "Settings needs named fields",
        ));
    };
    let name = &input.ident;
    let (mut handles, mut checks, mut ranges, mut groups) = (vec![], vec![], vec![], vec![]);
    let (mut shown, mut shown_groups) = (vec![], vec![]);
    let (mut required_fields, mut required_groups) = (vec![], vec![]);
    for field in &fields.named {
        let ident = field.ident.as_ref().expect("named field");
        let text = ident.to_string();
        let text_name = &text;
        let handle = Ident::new(&text.to_uppercase(), Span::call_site());
        match declared(field)? {
            Declared::Skip => {}
            Declared::Flatten => {
                let ty = &field.ty;
                checks.push(quote! { ::replab_settings::Settings::check_ranges(&self.#ident)?; });
                groups.push(quote! { <#ty as ::replab_settings::Settings>::range_text(field) });
                shown_groups
                    .push(quote! { <#ty as ::replab_settings::Settings>::shown_default(field) });
                required_groups
                    .push(quote! { <#ty as ::replab_settings::Settings>::required(field) });
            }
            Declared::Option {
                range,
                shown: value,
                required,
            } => {
                if required {
                    required_fields.push(text.clone());
                }
                if let Some(value) = value {
                    shown.push(quote! { #text_name => Some(::std::string::ToString::to_string(&(#value))), });
                }
                let doc = format!("The setting of `{text}` (for messages: its option).");
                handles.push(quote! {
                    #[doc = #doc]
                    pub const #handle: ::replab_settings::Setting =
                        ::replab_settings::Setting::of::<Self>(#text);
                });
                if let Some(range) = range {
                    checks.push(quote! {
                        ::replab_settings::Ranged::check_in(&self.#ident, Self::#handle, &(#range))?;
                    });
                    ranges
                        .push(quote! { #text => Some(::replab_settings::range_text(&(#range))), });
                }
            }
        }
    }
    let (imp, ty, wh) = input.generics.split_for_impl();
    Ok(quote! {
        impl #imp #name #ty #wh {
            #(#handles)*
        }

        impl #imp ::replab_settings::Settings for #name #ty #wh {
            fn check_ranges(&self) -> ::replab_settings::Result<()> {
                #(#checks)*
                Ok(())
            }

            fn range_text(field: &str) -> Option<String> {
                let own: Option<String> = match field {
                    #(#ranges)*
                    _ => None,
                };
                own #(.or_else(|| #groups))*
            }

            fn required(field: &str) -> bool {
                [#(#required_fields),*].contains(&field) #(|| #required_groups)*
            }

            fn shown_default(field: &str) -> Option<String> {
                let own: Option<String> = match field {
                    #(#shown)*
                    _ => None,
                };
                own #(.or_else(|| #shown_groups))*
            }
        }
    })
}

/// What `field` declares: skipped, flattened, or an option with its `#[setting(range = …)]`
/// and `#[setting(shown = …)]`.
fn declared(field: &Field) -> syn::Result<Declared> {
    if has_word(&field.attrs, "arg", "skip")? {
        return Ok(Declared::Skip);
    }
    if has_word(&field.attrs, "command", "flatten")? {
        return Ok(Declared::Flatten);
    }
    let (mut range, mut shown, mut required) = (None, None, false);
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("setting")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("range") {
                range = Some(Box::new(meta.value()?.parse::<Expr>()?));
            } else if meta.path.is_ident("shown") {
                shown = Some(Box::new(meta.value()?.parse::<Expr>()?));
            } else if meta.path.is_ident("required") {
                required = true;
            } else if meta.path.is_ident("shown_by_display") {
                let field = field.ident.as_ref().expect("named field");
                shown = Some(Box::new(syn::parse_quote! {
                    <Self as ::std::default::Default>::default().#field
                }));
            } else {
                return Err(meta.error(
                    "expected `range = LO..=HI`, `shown = EXPR`, `shown_by_display` or `required`",
                ));
            }
            Ok(())
        })?;
    }
    Ok(Declared::Option {
        range,
        shown,
        required,
    })
}

/// Whether an attribute `#[outer(...)]` of `attrs` names `word` at its top level
/// (`#[arg(skip)]`, `#[arg(skip = …)]`, `#[command(flatten)]`).
fn has_word(attrs: &[Attribute], outer: &str, word: &str) -> syn::Result<bool> {
    let mut found = false;
    for attr in attrs.iter().filter(|a| a.path().is_ident(outer)) {
        attr.parse_nested_meta(|meta| {
            found |= meta.path.is_ident(word);
            // Skip the value of `key = value` and the group of `key(...)`.
            if meta.input.peek(syn::Token![=]) {
                meta.value()?.parse::<Expr>()?;
            } else if meta.input.peek(syn::token::Paren) {
                let _ = meta.input.parse::<proc_macro2::Group>()?;
            }
            Ok(())
        })?;
    }
    Ok(found)
}
