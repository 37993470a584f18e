ALTER TABLE "procedure_steps" ADD COLUMN "meter_name" text;--> statement-breakpoint
ALTER TABLE "work_order_procedure_steps" ADD COLUMN "meter_name" text;