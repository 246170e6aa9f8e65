// SQL migration files are imported as text so `bun build --compile` embeds them in the binary.
declare module "*.sql" {
  const text: string;
  export default text;
}
