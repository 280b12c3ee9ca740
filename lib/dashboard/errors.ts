/** A signed-in user asked for something their role does not allow; the server refuses, whatever the UI showed. */
export class ForbiddenError extends Error {
  constructor(message = "Only an owner or admin of the account can do this.") {
    super(message);
    this.name = "ForbiddenError";
  }
}

/** A form value the server refused; `field` names the input it belongs to. */
export class FormError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "FormError";
  }
}
